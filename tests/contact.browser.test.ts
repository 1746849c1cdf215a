import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteInbox } from '../src/inbox/inbox-sqlite.ts';
import { launchBrowser, openPage, waitForIslands } from './helpers/browser.ts';
import type { TempSite } from './helpers/project.ts';
import { ServeProcess } from './helpers/serve-process.ts';
import { buildRealSite } from './helpers/site.ts';
import { freePort, startSiteverify, startSmtp } from './helpers/stand-ins.ts';

describe('the contact form of the built site, end to end through ssg serve', () => {
  let site: TempSite;
  let dataDir: string;
  let serve: ServeProcess;
  let browser: Browser;
  let siteverify: Awaited<ReturnType<typeof startSiteverify>>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  beforeAll(async () => {
    // serve only serves files: the challenge stand-in ships as a public file of this copy.
    site = await buildRealSite();
    dataDir = await mkdtemp(path.join(tmpdir(), 'ssg-e2e-'));
    siteverify = await startSiteverify('127.0.0.1');
    smtp = await startSmtp();
    const port = await freePort();
    serve = await ServeProcess.start(site.dir, {
      PORT: String(port),
      DATA_DIR: dataDir,
      SITE_ORIGIN: `http://127.0.0.1:${port}`,
      TURNSTILE_SECRET_KEY: 'e2e-secret',
      TURNSTILE_VERIFY_URL: siteverify.url,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      MAIL_TO: 'inbox@validators.example',
      DELIVERY_POLL_SECONDS: '0.1',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await siteverify?.close();
    await smtp?.stop();
    await site?.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a visitor sends the form; the message is stored, verified and mailed', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${serve.url}/contact`);
    await waitForIslands(page);
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('E-mail').fill('ada@example.org');
    await page.getByLabel('Subject').fill('Delegating to your validators');
    await page.getByLabel('Message').fill('We hold 50,000 CELO and would like to delegate.');
    await page.getByRole('button', { name: 'I am human' }).click();
    await page.getByRole('button', { name: 'Send message' }).click();

    await page.getByText('Thanks! We received your message.').waitFor();
    expect(await page.getByLabel('Name').inputValue()).toBe('');
    expect(errors).toEqual([]);

    const inbox = openSqliteInbox(dataDir);
    const stored = inbox.list();
    inbox.close();
    expect(stored).toEqual([
      expect.objectContaining({
        name: 'Ada Lovelace',
        email: 'ada@example.org',
        subject: 'Delegating to your validators',
        clientAddress: '127.0.0.1',
      }),
    ]);
    expect(siteverify.requests).toEqual([
      { secret: 'e2e-secret', response: 'stand-in-token-1', remoteip: '127.0.0.1' },
    ]);
    await expect.poll(() => smtp.received.length, { timeout: 5000 }).toBe(1);
    expect(smtp.received[0]!.raw).toContain('We hold 50,000 CELO and would like to delegate.');
  });

  it('a token the provider rejects shows the request error and stores nothing', async () => {
    const { page } = await openPage(browser);
    await page.addInitScript(() => {
      // The widget hands over a token that the siteverify stand-in refuses.
      let api: { render: (el: HTMLElement, options: { callback: (token: string) => void }) => string } | undefined;
      Object.defineProperty(window, 'turnstile', {
        configurable: true,
        get: () => api,
        set(value) {
          api = {
            ...value,
            render: (element: HTMLElement, options: { callback: (token: string) => void }) =>
              value.render(element, { ...options, callback: () => options.callback('refused-token') }),
          };
        },
      });
    });
    await page.goto(`${serve.url}/contact`);
    await waitForIslands(page);
    await page.getByLabel('Name').fill('Bot');
    await page.getByLabel('E-mail').fill('bot@example.org');
    await page.getByLabel('Subject').fill('Spam');
    await page.getByLabel('Message').fill('Buy now');
    await page.getByRole('button', { name: 'I am human' }).click();
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Something went wrong. Please try again later.');
    const inbox = openSqliteInbox(dataDir);
    expect(inbox.list().map((m) => m.name)).not.toContain('Bot');
    inbox.close();
  });
});
