import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview } from './helpers/preview.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

describe('ssg preview', () => {
  let site: TempSite;
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    site = await copySite(path.join(repoRoot, 'tests', 'fixtures', 'basic'));
    await site.write('site/public/news/404.html', '<!doctype html><title>x</title><p>No such article</p>');
    expect((await site.run(['build'])).code).toBe(0);
    ({ child, url } = await startPreview(site.dir, 0));
  });
  afterAll(async () => {
    child?.kill('SIGTERM');
    await site?.dispose();
  });

  it('serves each page at its canonical URL from PATH.html, without a redirect', async () => {
    for (const pathname of ['/about', '/about.html']) {
      const response = await fetch(url + pathname, { redirect: 'manual' });
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain('<h1>About us</h1>');
    }
    // The slash form: one permanent redirect to the page, its query kept, as Cloudflare Pages,
    // Netlify and the nginx guide's block answer; never for a path the site has no page at.
    const slashed = await fetch(`${url}/about/?ref=a%20b`, { redirect: 'manual' });
    expect(slashed.status).toBe(301);
    expect(slashed.headers.get('location')).toBe('/about?ref=a%20b');
    expect((await fetch(`${url}/about//`, { redirect: 'manual' })).headers.get('location')).toBe('/about');
    for (const missing of ['/nowhere/', '/assets/', '/']) {
      const answer = await fetch(url + missing, { redirect: 'manual' });
      expect(answer.status, missing).not.toBe(301);
    }
  });

  it('serves assets with their content types', async () => {
    const html = await (await fetch(`${url}/`)).text();
    const css = /(?:href|data-ssg-style)="(\/assets\/[^"]+\.css)"/.exec(html)![1]!;
    const js = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    expect((await fetch(url + css)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(url + js)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await fetch(`${url}/robots.txt`)).headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('answers a missing path with the nearest 404.html up the path, status 404', async () => {
    const nested = await fetch(`${url}/news/does-not-exist`);
    expect(nested.status).toBe(404);
    expect(await nested.text()).toContain('No such article');
    const root = await fetch(`${url}/nope/deeper/still`);
    expect(root.status).toBe(404);
    expect(await root.text()).toContain('<h1>Nothing here</h1>');
  });

  it('never serves files outside the site', async () => {
    const response = await fetch(`${url}/..%2f..%2fpackage.json`);
    expect(response.status).toBe(404);
  });

  it('refuses methods a static host does not take', async () => {
    expect((await fetch(`${url}/`, { method: 'POST' })).status).toBe(405);
  });

  it('stops on SIGTERM within 2 s, exiting 143 as a process ended by SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const started = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('ssg preview without a build', () => {
  it('says to build first and exits 1', async () => {
    const site = await copySite(path.join(repoRoot, 'tests', 'fixtures', 'basic'));
    const result = await site.run(['preview', '--port', '0']);
    await site.dispose();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Build the site first ("npx ssg build"; "npm run build" in this repository).');
  });
});
