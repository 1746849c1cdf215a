import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { launchBrowser, openPage, waitForIsland } from './helpers/browser.ts';
import { get } from './helpers/hosting-checks.ts';
import { hostingSuite } from './helpers/hosting-suite.ts';
import { repoRoot } from './helpers/project.ts';
import { freePort, startSiteverify, startWebhook } from './helpers/stand-ins.ts';
import { localContactD1, startPagesDev, type RunningPagesDev } from './helpers/wrangler.ts';

// wrangler pages dev: Cloudflare's own Pages runtime (workerd) on loopback, serving dist/ and
// running functions/api/contact.ts, with Turnstile and the inbox webhook as local stand-ins.
describe('Cloudflare Pages (wrangler pages dev)', () => {
  let siteverify: Awaited<ReturnType<typeof startSiteverify>>;
  let webhook: Awaited<ReturnType<typeof startWebhook>>;
  let pages: RunningPagesDev;
  beforeAll(async () => {
    siteverify = await startSiteverify('127.0.0.1');
    webhook = await startWebhook();
  });
  afterAll(async () => {
    await siteverify?.close();
    await webhook?.close();
  });

  const { context } = hostingSuite(async (site) => {
    const port = await freePort();
    // wrangler bundles functions/ with the packages they import, as in a checkout after `npm ci`.
    await symlink(path.join(repoRoot, 'node_modules'), path.join(site.dir, 'node_modules'), 'dir');
    // The contact inbox's D1, made as docs/deploy-cloudflare-pages.md says.
    const d1 = await localContactD1(site.dir);
    pages = await startPagesDev({
      cwd: site.dir,
      dir: 'dist',
      port,
      d1: { CONTACT_DB: d1.id },
      persistTo: d1.state,
      bindings: {
        SITE_ORIGIN: `http://127.0.0.1:${port}`,
        TURNSTILE_SECRET_KEY: 'pages-secret',
        TURNSTILE_VERIFY_URL: siteverify.url,
        CONTACT_WEBHOOK_URL: webhook.url,
        CONTACT_WEBHOOK_TOKEN: 'pages-hook-token',
      },
    });
    return pages;
  });

  it('redirects /about/ to the canonical /about, as the deploy guide says', async () => {
    const answer = await get(`${pages.url}/about/`);
    expect([301, 308]).toContain(answer.status);
    expect(new URL(answer.headers.get('location')!, pages.url).pathname).toBe('/about');
  });

  it('delivers a message sent with the form to the webhook through the Pages Function', async () => {
    const browser = await launchBrowser();
    try {
      const { page, errors } = await openPage(browser);
      // The form needs the document and its island, not every subresource's load event; once in
      // a full run (of several today) the load event of this page did not come within 30 s. Should
      // the page itself not come, wrangler's output says what workerd was doing.
      await page
        .goto(`${pages.url}/contact`, { waitUntil: 'domcontentloaded', timeout: 60_000 })
        .catch((error: Error) => {
          throw new Error(`${error.message}\nwrangler's output:\n${pages.process.output.slice(-4000)}`);
        });
      const name = page.getByLabel('Name');
      await waitForIsland(name);
      await name.fill('Ada Lovelace');
      await page.getByLabel('E-mail').fill('ada@example.org');
      await page.getByLabel('Subject').fill('Through workerd');
      await page.getByLabel('Message').fill('Sent through the Pages runtime.');
      await page.getByRole('button', { name: 'I am human' }).click();
      await page.getByRole('button', { name: /send/i }).click();
      await page.getByText('Thanks! We received your message.').waitFor({ timeout: 30_000 });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
    expect(siteverify.requests.at(-1)).toMatchObject({ secret: 'pages-secret', response: 'stand-in-token-1' });
    // Stored, then handed on after the answer.
    await expect.poll(() => webhook.received.length).toBe(1);
    expect(webhook.received[0]!.headers.authorization).toBe('Bearer pages-hook-token');
    expect(webhook.received[0]!.body).toMatchObject({
      name: 'Ada Lovelace',
      subject: 'Through workerd',
      message: 'Sent through the Pages runtime.',
    });
    // A browser start, the island's hydration and the 30 s wait for the answer can together pass
    // the default 60 s on a loaded two-core machine (seen once in a full run).
  }, 120_000);

  it('refuses a post from another origin in the Pages runtime too', async () => {
    const response = await fetch(`${pages.url}/api/contact`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
      body: JSON.stringify({ name: 'x', email: 'x@example.org', subject: 's', message: 'm', turnstileToken: 't' }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ ok: false, error: 'origin_not_allowed' });
  });

  it('ran offline: no telemetry, no update check, no Request.cf download, no 404-rule warning', () => {
    const output = pages.process.output;
    expect(output).toContain('Ready on http://127.0.0.1:');
    expect(output).not.toMatch(
      /Request\.cf|workers\.cloudflare\.com|newer version|metrics|telemetry|ENOTFOUND|EAI_AGAIN/i,
    );
    expect(output).not.toMatch(/_redirects|Invalid redirect/i);
    expect(context().host.url).toBe(pages.url);
  });
});
