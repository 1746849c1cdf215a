import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersFor, parseHeadersFile } from '../src/server/headers-file.ts';
import type { TempSite } from './helpers/project.ts';
import { buildRealSite, sharedRealSite } from './helpers/site.ts';

/** The page paths of a built site: every HTML file but the editor's. */
function pagePaths(sitemap: string): string[] {
  return [...sitemap.matchAll(/<loc>https?:\/\/[^/]+([^<]*)<\/loc>/g)].map((match) => match[1] || '/');
}

describe('the editor in the built site', () => {
  const site = sharedRealSite();
  let without: TempSite;

  beforeAll(async () => {
    // The same site without an editor: what the public pages' headers were before it.
    without = await buildRealSite(async (copy) => {
      const entry = await copy.read('site/index.tsx');
      await copy.write('site/index.tsx', entry.replace(/^\s*editor,\n/m, ''));
    });
  });
  afterAll(() => without?.dispose());

  it('writes /admin/index.html with noindex, the bundle beside it, and no CDN address', async () => {
    const html = await site.read('dist/admin/index.html');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>|<style|style=/);
    expect(existsSync(site.file('dist/admin/decap-cms.js'))).toBe(true);
    const config = JSON.parse(await site.read('dist/admin/config.json'));
    expect(config.backend.name).toBe('github');
    expect(config.local_backend).toBeUndefined();
    expect(existsSync(without.file('dist/admin'))).toBe(false);
  });

  it('keeps the editor out of the sitemap', async () => {
    const sitemap = await site.read('dist/sitemap.xml');
    expect(sitemap).not.toContain('/admin');
    expect(pagePaths(sitemap)).toEqual(pagePaths(await without.read('dist/sitemap.xml')));
  });

  it("gives the editor its own headers and leaves every public page's byte for byte as they were", async () => {
    const rules = parseHeadersFile(await site.read('dist/_headers'));
    const before = parseHeadersFile(await without.read('dist/_headers'));
    const paths = [...pagePaths(await site.read('dist/sitemap.xml')), '/404', '/assets/x.js', '/news/feed.xml'];
    for (const page of paths) expect(headersFor(rules, page), page).toEqual(headersFor(before, page));
    // The `/*` block itself is unchanged: the editor's rules only follow it.
    expect((await site.read('dist/_headers')).startsWith(await without.read('dist/_headers'))).toBe(true);

    const editor = headersFor(rules, '/admin/');
    expect(editor['X-Robots-Tag']).toBe('noindex, nofollow');
    expect(editor['Content-Security-Policy']).toContain("'unsafe-eval'");
    expect(editor['Content-Security-Policy']).not.toBe(headersFor(rules, '/')['Content-Security-Policy']);
    expect(headersFor(rules, '/admin')).toEqual(editor);
    expect(headersFor(rules, '/')['Content-Security-Policy']).not.toMatch(/unsafe/);

    const nginx = await site.read('dist/_headers.nginx.conf');
    const nginxBefore = await without.read('dist/_headers.nginx.conf');
    expect(nginx.startsWith(nginxBefore)).toBe(true);
    expect(nginx.slice(nginxBefore.length)).toContain('location ^~ /admin/ {');
  });
});
