// Redirects declared by a site and by an article's front matter, built and answered as a visitor
// meets them: the hosts' files, the page for hosts without rules, and `ssg preview`'s answers.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevProcess } from './helpers/dev-process.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';
import { startPreview } from './helpers/preview.ts';
import { withRedirects } from './helpers/redirects.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

describe('redirects, built and previewed', () => {
  let site: TempSite;
  let preview: { child: ChildProcess; url: string } | undefined;
  let buildOutput = '';

  beforeAll(async () => {
    site = await copySite(fixture);
    await withRedirects(
      site,
      `{ '/team': '/about', '/old-home/': { destination: '/', status: 308 }, '/gh': 'https://github.com/example' }`,
    );
    const post = await site.read('content/news/first-post.md');
    await site.write(
      'content/news/first-post.md',
      post.replace('excerpt: The first one.', 'excerpt: The first one.\naliases: [/blog/first, first-old]'),
    );
    // A page linking to a redirect's source: it works, with a warning naming the target.
    await site.write('content/news/linker.md', '---\ntitle: Linker\ndate: "2024-01-01"\n---\nSee [the team](/team).\n');
    const result = await site.run(['build']);
    buildOutput = result.stdout + result.stderr;
    expect(result.code, buildOutput).toBe(0);
    preview = await startPreview(site.dir);
  });
  afterAll(async () => {
    preview?.child.kill('SIGTERM');
    await site?.dispose();
  });

  it('writes _redirects for Netlify and Cloudflare Pages, both forms of each source', async () => {
    const rules = (await site.read('dist/_redirects')).split('\n').filter((line) => line && !line.startsWith('#'));
    expect(rules).toEqual(
      expect.arrayContaining([
        '/team /about 301',
        '/team/ /about 301',
        '/old-home / 308',
        '/blog/first /news/first-post 301',
        '/news/first-old /news/first-post 301',
        '/gh https://github.com/example 301',
      ]),
    );
  });

  it('writes exact nginx locations into the include the server block reads', async () => {
    expect(await site.read('dist/_headers.nginx.conf')).toContain(
      'location = /blog/first { return 301 "/news/first-post"; }',
    );
  });

  it('writes a page at each source for hosts without rules: canonical link and refresh', async () => {
    const page = await site.read('dist/blog/first.html');
    expect(page).toMatch(/<link rel="canonical" href="https?:\/\/[^/"]+\/news\/first-post">/);
    expect(page).toContain('<meta name="robots" content="noindex">');
    expect(page).toMatch(/<meta http-equiv="refresh" content="0; url=[^"]+\/news\/first-post">/);
  });

  it('warns about a link to a redirect, naming where it leads', () => {
    expect(buildOutput).toContain('links to /team, which redirects to /about; link to /about instead.');
  });

  it('preview answers each source, with or without its slash, with the status and the destination', async () => {
    const cases: [string, number, string][] = [
      ['/team', 301, '/about'],
      ['/team/?x=1', 301, '/about?x=1'],
      ['/old-home', 308, '/'],
      ['/blog/first', 301, '/news/first-post'],
      ['/gh', 301, 'https://github.com/example'],
    ];
    for (const [pathname, status, location] of cases) {
      const response = await fetch(preview!.url + pathname, { redirect: 'manual' });
      expect(response.status, pathname).toBe(status);
      expect(response.headers.get('location'), pathname).toBe(location);
    }
    expect((await fetch(`${preview!.url}/about`, { redirect: 'manual' })).status).toBe(200);
  });
});

describe('redirects in dev', () => {
  it('answers a source as the build does, and a redirect added while it runs', async () => {
    const site = await copySite(fixture);
    await withRedirects(site, `{ '/team': '/about' }`);
    const dev = await DevProcess.start(site.dir);
    try {
      const first = await fetch(`${dev.url}/team`, { redirect: 'manual' });
      expect(first.status).toBe(301);
      expect(first.headers.get('location')).toBe('/about');
      const events = await dev.events();
      await events.settle();
      const source = await site.read('site/index.tsx');
      await site.write('site/index.tsx', source.replace(`'/team': '/about'`, `'/team': '/about', '/crew': '/'`));
      await events.next('reload');
      const added = await fetch(`${dev.url}/crew`, { redirect: 'manual' });
      expect(added.status).toBe(301);
      expect(added.headers.get('location')).toBe('/');
      events.close();
    } finally {
      await dev.stop();
      await site.dispose();
    }
  });
});

describe('redirects the build refuses', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await copySite(fixture);
  });
  afterAll(async () => {
    await site?.dispose();
  });

  for (const [name, redirects, expected] of [
    ['a source that is a page', `{ '/about': '/' }`, '/about is redirected, but it is a page'],
    ['a destination that is nothing', `{ '/team': '/nobody' }`, 'goes to /nobody, which is no page or file'],
    ['a loop', `{ '/a': '/b', '/b': '/a' }`, 'The redirects loop: /a → /b → /a'],
  ] as const) {
    it(`stops on ${name}, naming the file`, async () => {
      await copySite(fixture).then(async (fresh) => {
        await withRedirects(fresh, redirects);
        const result = await fresh.run(['build']);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('[RedirectInvalid]');
        expect(result.stderr).toContain('site/index.tsx');
        expect(result.stderr).toContain(expected);
        await fresh.dispose();
      });
    });
  }

  it('stops on an article alias that is another page, naming the article', async () => {
    const post = await site.read('content/news/first-post.md');
    await site.write(
      'content/news/first-post.md',
      post.replace('excerpt: The first one.', 'excerpt: The first one.\nredirect_from: /about'),
    );
    const result = await site.run(['build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('content/news/first-post.md');
    expect(result.stderr).toContain('/about is redirected, but it is a page');
  });
});
