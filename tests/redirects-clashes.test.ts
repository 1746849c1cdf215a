// Redirects that would hide or replace what the build writes, refused by name.
// Sources the build writes, destinations it writes itself, and a hand-written site/public/_redirects.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withRedirects } from './helpers/redirects.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

describe('redirects that clash with what the build writes', () => {
  let site: TempSite | undefined;
  afterEach(async () => {
    await site?.dispose();
    site = undefined;
  });

  it('refuses a redirect from /index: its page index.html would replace the home page', async () => {
    site = await copySite(fixture);
    await withRedirects(site, `{ '/index': '/about' }`);
    const result = await site.run(['build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('/index is redirected, but it is a page or file of the site');
  }, 60_000);

  it('refuses an article alias /index for the same reason', async () => {
    site = await copySite(fixture);
    const post = await site.read('content/news/first-post.md');
    await site.write(
      'content/news/first-post.md',
      post.replace('excerpt: The first one.', 'excerpt: The first one.\naliases: [/index]'),
    );
    const result = await site.run(['build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('content/news/first-post.md');
  }, 60_000);

  it('refuses a redirect from a file the build generates (sitemap.xml), which nginx and preview would hide', async () => {
    site = await copySite(fixture);
    await withRedirects(site, `{ '/sitemap.xml': '/about' }`);
    const result = await site.run(['build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[RedirectInvalid]');
  }, 60_000);

  it('accepts a redirect to a file the build generates (sitemap.xml)', async () => {
    site = await copySite(fixture);
    await withRedirects(site, `{ '/sm': '/sitemap.xml' }`);
    const result = await site.run(['build']);
    expect(result.stderr + result.stdout).not.toContain('no page or file');
    expect(result.code).toBe(0);
    expect(await site.read('dist/_redirects')).toContain('/sm /sitemap.xml 301');
  }, 60_000);

  it('refuses redirects beside a hand-written site/public/_redirects, which would win on some hosts only', async () => {
    site = await copySite(fixture);
    await withRedirects(site, `{ '/a': '/about' }`);
    await site.write('site/public/_redirects', '/a /news/first-post 302\n');
    const result = await site.run(['build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('site/public/_redirects is written by hand and the site declares redirects too');
  }, 60_000);
});

describe('redirects whose source differs from a page only in case', () => {
  it('refuses /About beside the page /about: one file on a disk that ignores case', async () => {
    const site = await copySite(fixture);
    try {
      await withRedirects(site, `{ '/About': '/about' }`);
      const result = await site.run(['build']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('/About is redirected, but it is a page or file');
    } finally {
      await site.dispose();
    }
  }, 60_000);
});
