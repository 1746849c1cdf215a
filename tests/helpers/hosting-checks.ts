import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseHeadersFile } from '../../src/server/headers-file.ts';
import { launchBrowser, openPage } from './browser.ts';

/** The URL paths of every page, as the sitemap lists them (the canonical URLs). */
export async function sitemapPaths(dist: string): Promise<string[]> {
  const sitemap = await readFile(path.join(dist, 'sitemap.xml'), 'utf8');
  return [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
}

/** The headers `_headers` gives every path (`/*`): what every response of the site must carry. */
export async function securityHeaders(dist: string): Promise<Record<string, string>> {
  const rules = parseHeadersFile(await readFile(path.join(dist, '_headers'), 'utf8'));
  return rules.find((rule) => rule.pattern.test('/any/path') && rule.pattern.test('/'))!.headers;
}

/** One hashed script of the build, `/assets/….js`. */
export async function someAsset(dist: string): Promise<string> {
  const name = (await readdir(path.join(dist, 'assets'))).find((file) => file.endsWith('.js'))!;
  return `/assets/${name}`;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

/** A GET that does not follow redirects, so that a redirect shows as one. */
export async function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, { redirect: 'manual', headers, signal: AbortSignal.timeout(20_000) });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** Which of `expected` a response lacks or carries with another value (names compared case-insensitively). */
export function missingHeaders(actual: Headers, expected: Record<string, string>): string[] {
  return Object.entries(expected)
    .filter(([name, value]) => actual.get(name) !== value)
    .map(([name, value]) => `${name}: expected "${value}", got "${actual.get(name)}"`);
}

/**
 * Opens each page in Debian's Chromium and collects Content-Security-Policy violations (the
 * `securitypolicyviolation` events and the console's reports) and other console errors.
 */
export async function cspViolations(baseUrl: string, paths: readonly string[]): Promise<string[]> {
  const browser = await launchBrowser();
  try {
    const { page, errors } = await openPage(browser);
    await page.addInitScript(() => {
      (window as unknown as { __violations: string[] }).__violations = [];
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as unknown as { __violations: string[] }).__violations.push(
          `${event.violatedDirective} ${event.blockedURI}`,
        ),
      );
    });
    const found: string[] = [];
    for (const urlPath of paths) {
      await page.goto(baseUrl + urlPath, { waitUntil: 'load' });
      // Scroll through the page so that islands waiting to be visible load their scripts too.
      await page.evaluate(async () => {
        for (
          let y = 0, steps = 0;
          y < document.body.scrollHeight && steps < 200;
          y += window.innerHeight / 2, steps++
        ) {
          window.scrollTo(0, y);
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        }
      });
      const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
      found.push(...violations.map((violation) => `${urlPath}: ${violation}`));
    }
    return [...found, ...errors.filter((error) => /Content.Security.Policy|Refused to/i.test(error))];
  } finally {
    await browser.close();
  }
}
