import { existsSync, readdirSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevProcess } from './helpers/dev-process.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');
const text = async (url: string) => (await fetch(url)).text();

describe('ssg dev', () => {
  let site: TempSite;
  let dev: DevProcess;

  beforeAll(async () => {
    site = await copySite(fixture);
    dev = await DevProcess.start(site.dir);
  });
  afterAll(async () => {
    await dev?.stop();
    await site?.dispose();
  });

  it('builds once and serves the site on 127.0.0.1, printing the address', async () => {
    expect(dev.stdout).toMatch(/Built 5 pages in \d+ ms/);
    expect(dev.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const html = await text(`${dev.url}/about`);
    expect(html).toContain('<h1>About us</h1>');
    expect(html).toMatch(
      /<script type="module" src="\/__ssg\/client\.js" data-ssg-dev data-page="\/about" data-generation="0"><\/script>\n<\/body>/,
    );
  });

  it('an article edit shows in the served page; only that page is written', async () => {
    const events = await dev.events();
    const from = dev.stdout.length;
    const original = await site.read('content/news/first-post.md');
    await site.write('content/news/first-post.md', original.replace('Some *text*', 'Some *edited text*'));
    const reload = await events.next('reload', (data) => data.pages.length > 0);
    expect(reload.data).toEqual({ all: false, pages: ['/news/first-post'] });
    await expect.poll(() => text(`${dev.url}/news/first-post`)).toContain('<em>edited text</em>');
    expect(
      await dev.waitForOutput(/content\/news\/first-post\.md changed · 1 page written · \d+ ms/, from),
    ).toBeTruthy();
    events.close();
  });

  it("editors' side files (swap, backup, dot files, Vim's 4913) cause no rebuild; the real save does", async () => {
    const events = await dev.events();
    const from = dev.stdout.length;
    for (const name of ['.first-post.md.swp', '.first-post.md.swx', 'first-post.md~', '4913', '.hidden.md']) {
      await site.write(`content/news/${name}`, '---\ntitle: Not an article\n---\nx');
    }
    await site.write('content/.drafts/note.md', 'x');
    const original = await site.read('content/news/2024/second-post.md');
    await site.write('content/news/2024/second-post.md', `${original}\nSaved for real.\n`);
    const reload = await events.next('reload', (data) => data.pages.length > 0);
    expect(reload.data).toEqual({ all: false, pages: ['/news/second-post'] });
    const output = dev.stdout.slice(from);
    expect(output).toMatch(/content\/news\/2024\/second-post\.md changed · 1 page written/);
    // No rebuild names a side file, alone or with others ("N files changed"). A save may rebuild
    // twice: the file is emptied, then written, and on a busy machine the two can come further
    // apart than the watcher's debounce (the second rebuild reads what the first missed); a late
    // second event of the last test's save likewise.
    const rebuilds = output.match(/^.* changed · .*$/gm) ?? [];
    for (const line of rebuilds)
      expect(line, output).toMatch(/(^|\s)content\/news\/(2024\/second-post|first-post)\.md changed · /);
    events.close();
  });

  it('a title edit also re-renders the pages that list it, and nothing else', async () => {
    const events = await dev.events();
    const original = await site.read('content/news/first-post.md');
    await site.write('content/news/first-post.md', original.replace('title: First post', 'title: First post, renamed'));
    const reload = await events.next('reload', (data) => data.pages.length > 0);
    expect((reload.data as { pages: string[] }).pages.sort()).toEqual(['/', '/news/first-post']);
    await expect.poll(() => text(`${dev.url}/`)).toContain('First post, renamed');
    events.close();
  });

  it('a broken internal link is reported as the build reports it, and the fix recovers', async () => {
    const events = await dev.events();
    const original = await site.read('site/index.tsx');
    await site.write(
      'site/index.tsx',
      original.replace('return <h1>About us</h1>;', 'return <><h1>About us</h1><a href="/nowhere">x</a></>;'),
    );
    const error = await events.next('build-error', (data) => data[0].code === 'LinkBroken');
    expect(error.data).toEqual([
      expect.objectContaining({
        message: 'The page /about links to /nowhere, which no route or public file provides.',
      }),
    ]);
    await site.write('site/index.tsx', original);
    await events.next('reload', (data) => data.all === true);
    events.close();
  });

  it('a save that changes nothing built (the same bytes written again) reloads no page', async () => {
    const events = await dev.events();
    await events.settle();
    const logged = dev.stdout.length;
    await site.write('site/index.tsx', await site.read('site/index.tsx'));
    await expect
      .poll(() => dev.stdout.slice(logged), { timeout: 15_000 })
      .toMatch(/site\/index\.tsx changed · 0 pages written/);
    await events.settle();
    expect(events.received.filter((event) => event.event === 'reload')).toEqual([]);
    events.close();
  });

  it('a file under site/ that no module imports, saved with the style sheet, leaves the style swap a swap', async () => {
    const events = await dev.events();
    await events.settle();
    const from = events.received.length;
    const style = await site.read('site/styles/index.css');
    // As an editor saving atomically: a temporary file beside the style sheet, renamed over it;
    // with another file nothing imports, saved at once so that one rebuild sees them together.
    writeFileSync(site.file('site/styles/index.css.tmp'), `${style}\nh1 { color: rgb(4, 5, 6); }\n`);
    writeFileSync(site.file('site/notes.txt'), 'Nothing imports this.');
    renameSync(site.file('site/styles/index.css.tmp'), site.file('site/styles/index.css'));
    const swap = (await events.next('style')).data as { from?: string; to?: string };
    expect(swap.to).not.toBe(swap.from);
    await events.settle();
    expect(events.received.slice(from).filter((event) => event.event === 'reload')).toEqual([]);
    await rm(site.file('site/notes.txt'));
    await site.write('site/styles/index.css', style);
    await events.next('style');
    events.close();
  });

  it('a page whose event stream opens after a rebuild is told it missed one (its generation is old)', async () => {
    const events = await dev.events();
    await events.settle();
    const generationOf = (html: string) => Number(/data-generation="(\d+)"/.exec(html)![1]);
    const served = generationOf(await text(`${dev.url}/news/first-post`));
    const hello = async () => {
      const late = await dev.events();
      const said = (await late.next('hello')).data as { generation: number };
      late.close();
      return said.generation;
    };
    expect(await hello()).toBe(served);
    const original = await site.read('content/news/first-post.md');
    await site.write('content/news/first-post.md', `${original}\nMissed by a page still loading.`);
    await events.next('reload', (data) => data.pages.includes('/news/first-post'));
    expect(await hello()).toBeGreaterThan(served);
    expect(generationOf(await text(`${dev.url}/news/first-post`))).toBe(await hello());
    events.close();
  });

  it('a new article gets its page and appears in the list; deleting it removes both', async () => {
    const events = await dev.events();
    await site.write('content/news/brand-new.md', '---\ntitle: Brand new\ndate: "2025-06-01"\n---\nFresh.');
    await events.next('reload', (data) => data.pages.length > 0);
    await expect.poll(() => text(`${dev.url}/news/brand-new`)).toContain('<h1>Brand new</h1>');
    const home = await text(`${dev.url}/`);
    expect(home.indexOf('Brand new')).toBeGreaterThan(-1);
    expect(home.indexOf('Brand new')).toBeLessThan(home.indexOf('Second post'));

    await site.remove('content/news/brand-new.md');
    const removal = await events.next('reload', (data) => data.all === true);
    expect(removal.data).toMatchObject({ all: true });
    await expect.poll(() => text(`${dev.url}/`)).not.toContain('Brand new');
    const gone = await fetch(`${dev.url}/news/brand-new`);
    expect(gone.status).toBe(404);
    events.close();
  });

  it('deleting an article another one links to fails as the build fails (links of every page), and recovers', async () => {
    const events = await dev.events();
    await site.write(
      'content/news/linker.md',
      '---\ntitle: Linker\ndate: "2024-01-02"\n---\nSee [the second](/news/second-post).',
    );
    await events.next('reload', (data) => data.pages.includes('/news/linker'));
    const second = await site.read('content/news/2024/second-post.md');
    await site.remove('content/news/2024/second-post.md');
    const error = await events.next('build-error', (data) => data[0].code === 'LinkBroken');
    // Named by the article's file and line, as the build names it: that is where to fix it.
    expect(error.data).toEqual([
      expect.objectContaining({
        where: 'content/news/linker.md:5',
        message: 'The page /news/linker links to /news/second-post, which no route or public file provides.',
      }),
    ]);
    expect(await text(`${dev.url}/news/second-post`)).toContain('Second post'); // the last good pages stay
    await site.write('content/news/2024/second-post.md', second);
    await events.next('reload'); // its page was kept as it was: nothing to write
    expect(await text(`${dev.url}/news/linker`)).toContain('/news/second-post');
    await site.remove('content/news/linker.md');
    await events.next('reload', (data) => data.all === true);
    events.close();
  });

  it('a public file at a page path is refused as the build refuses it; removing it brings the page back', async () => {
    const events = await dev.events();
    await site.write('site/public/about.html', '<p>clash</p>');
    const error = await events.next('build-error', (data) => data[0].code === 'PublicFileClash');
    expect(error.data).toEqual([
      expect.objectContaining({ message: 'The public file about.html has the same path as a generated file.' }),
    ]);
    expect(await text(`${dev.url}/about`)).toContain('About us');
    await site.remove('site/public/about.html');
    await events.next('reload', (data) => data.all === true);
    const about = await fetch(`${dev.url}/about`);
    expect(about.status).toBe(200);
    expect(await about.text()).toContain('About us');
    events.close();
  });

  it('a new folder in site/public is copied, its files served, and later saves still work', async () => {
    const events = await dev.events();
    await site.write('site/public/docs/deep/guide.txt', 'a guide');
    await events.next('reload', (data) => data.all === true);
    await expect.poll(() => text(`${dev.url}/docs/deep/guide.txt`)).toBe('a guide');
    const original = await site.read('content/news/first-post.md');
    await site.write('content/news/first-post.md', `${original}\nA line after the new folder.\n`);
    await events.next('reload', (data) => data.pages.includes('/news/first-post'));
    await expect.poll(() => text(`${dev.url}/news/first-post`)).toContain('A line after the new folder.');
    await site.remove('site/public/docs');
    await events.next('reload', (data) => data.all === true);
    await expect.poll(async () => (await fetch(`${dev.url}/docs/deep/guide.txt`)).status).toBe(404);
    await site.write('content/news/first-post.md', original);
    await events.next('reload', (data) => data.pages.includes('/news/first-post'));
    events.close();
  });

  it('a broken front matter block: the error in the terminal and the overlay, the server keeps running, a fix recovers', async () => {
    const events = await dev.events();
    const original = await site.read('content/news/2024/second-post.md');
    const fromErr = dev.stderr.length;
    await site.write('content/news/2024/second-post.md', original.replace(/\n---\n/, '\n'));
    const error = await events.next('build-error');
    expect(error.data).toEqual([
      expect.objectContaining({ code: 'FrontMatterUnclosed', where: 'content/news/2024/second-post.md:1' }),
    ]);
    await expect
      .poll(() => dev.stderr.slice(fromErr))
      .toMatch(
        /\[FrontMatterUnclosed\] The front matter has no closing line\n {2}content\/news\/2024\/second-post\.md:1: /,
      );
    // The last good page is still served, and a page opened now learns of the error at once.
    await expect.poll(() => text(`${dev.url}/news/second-post`)).toContain('Second post');
    const late = await dev.events();
    expect((await late.next('build-error')).data).toEqual(error.data);
    late.close();

    await site.write('content/news/2024/second-post.md', original.replace('Body of the second post.', 'Fixed body.'));
    await events.next('reload');
    await expect.poll(() => text(`${dev.url}/news/second-post`)).toContain('Fixed body.');
    events.close();
  });

  it('a broken file stays reported when another file is saved, until it is fixed', async () => {
    const events = await dev.events();
    await site.write('content/news/bad.md', '---\ntitle: [unclosed\n---\n');
    await events.next('build-error');
    const original = await site.read('content/news/first-post.md');
    await site.write('content/news/first-post.md', `${original}\nAnother line.`);
    const again = await events.next('build-error', (data) => JSON.stringify(data).includes('content/news/bad.md'));
    expect(again.data).toEqual([
      expect.objectContaining({
        code: 'FrontMatterInvalidYaml',
        where: expect.stringMatching(/^content\/news\/bad\.md:\d+/),
      }),
    ]);
    // It is the other save that triggered this rebuild, and still the broken file is reported.
    await expect.poll(() => dev.stdout).toMatch(/first-post\.md|2 files changed/);
    await site.remove('content/news/bad.md');
    await events.next('reload');
    await expect.poll(() => text(`${dev.url}/news/first-post`)).toContain('Another line.');
    events.close();
  });

  it('a JSX syntax error and a component that throws are shown with file and line, then recover', async () => {
    const events = await dev.events();
    const original = await site.read('site/index.tsx');
    await site.write('site/index.tsx', original.replace('return <h1>About us</h1>;', 'return <h1>About us</h2>;'));
    const syntax = (await events.next('build-error')).data as Array<{ code: string; where: string; message: string }>;
    expect(syntax[0]).toMatchObject({
      code: 'SiteCompileFailed',
      where: expect.stringMatching(/^site\/index\.tsx:\d+:\d+$/),
    });
    expect(syntax[0]!.message).toContain('Unexpected closing "h2" tag');

    await site.write(
      'site/index.tsx',
      original.replace('return <h1>About us</h1>;', "throw new Error('about exploded');"),
    );
    const thrown = (await events.next('build-error', (data) => data[0].code === 'PageRenderFailed')).data as Array<{
      code: string;
      where: string;
      message: string;
    }>;
    expect(thrown[0]).toMatchObject({
      code: 'PageRenderFailed',
      where: expect.stringMatching(/^site\/index\.tsx:\d+$/),
    });
    expect(thrown[0]!.message).toContain('about exploded');

    await site.write('site/index.tsx', original.replace('About us', 'About the team'));
    await events.next('reload', (data) => data.all === true);
    await expect.poll(() => text(`${dev.url}/about`)).toContain('<h1>About the team</h1>');
    events.close();
  });

  it('two articles with one slug, and a file name that is no slug, are reported as the build reports them', async () => {
    const events = await dev.events();
    await site.write('content/news/2024/first-post.md', '---\ndate: "2024-01-01"\n---\nAgain');
    const duplicate = await events.next('build-error', (data) => data[0].code === 'ArticleSlugDuplicate');
    expect(duplicate.data).toEqual([
      expect.objectContaining({
        where: 'content/news/first-post.md',
        message: 'The slug "first-post" is already used by content/news/2024/first-post.md.',
      }),
    ]);
    await site.remove('content/news/2024/first-post.md');
    await events.next('reload');
    await site.write('content/news/Bad Name.md', 'x');
    const invalid = await events.next('build-error', (data) => data[0].code === 'ArticleSlugInvalid');
    expect(invalid.data).toEqual([expect.objectContaining({ where: 'content/news/Bad Name.md' })]);
    await site.remove('content/news/Bad Name.md');
    await events.next('reload');
    events.close();
  });

  it('a YAML data error is reported and recovers', async () => {
    const events = await dev.events();
    await site.write('content/extra.yaml', 'key: [oops');
    const error = (await events.next('build-error', (data) => data[0].code === 'DataInvalidYaml')).data as Array<{
      code: string;
      where: string;
    }>;
    expect(error[0]).toMatchObject({
      code: 'DataInvalidYaml',
      where: expect.stringMatching(/^content\/extra\.yaml:1:\d+$/),
    });
    await site.write('content/extra.yaml', 'key: fine');
    await events.next('reload');
    events.close();
  });

  it('a style change swaps the style sheet without a reload, and pages point at the new one', async () => {
    const events = await dev.events();
    // A rebuild left over from the test before would fold this change into a page reload.
    await events.settle();
    const original = await site.read('site/styles/index.css');
    await site.write('site/styles/index.css', `${original}\nh1 { color: rebeccapurple; }\n`);
    const swap = (await events.next('style')).data as { from: string; to: string };
    expect(swap.from).not.toBe(swap.to);
    expect(await text(dev.url + swap.to)).toContain('#639');
    // The small sheet is inline, marked with its URL for the swap.
    await expect.poll(() => text(`${dev.url}/about`)).toContain(`data-ssg-style="${swap.to}"`);
    expect((await fetch(dev.url + swap.from)).status).toBe(404);
    events.close();
  });

  // One burst, one rebuild: proven exactly in watch-queue.test.ts. Here, under a loaded machine the
  // writes of the burst may be spread out in time; a second rebuild then picks up the last write.
  it('rapid saves coalesce (at most one follow-up rebuild), and the last save wins', async () => {
    const events = await dev.events();
    // The style sheet the test before wrote may still be looked at once more (the watcher's second
    // look): its rebuild is not this burst's.
    await events.settle();
    const from = dev.stdout.length;
    const original = await site.read('content/news/first-post.md');
    // Back to back, as an editor that writes a file several times in a row.
    for (let index = 0; index < 5; index++)
      writeFileSync(site.file('content/news/first-post.md'), `${original}\nSave ${index}.`);
    await events.next('reload');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const log = dev.stdout.slice(from);
    expect(log.match(/changed ·/g)!.length, log).toBeLessThanOrEqual(2);
    await expect.poll(() => text(`${dev.url}/news/first-post`)).toContain('Save 4.');
    events.close();
  });

  it('a second save soon after the first is not lost (chokidar drops its event)', async () => {
    const original = await site.read('content/news/first-post.md');
    await site.write('content/news/first-post.md', `${original}\nFirst save.`);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await site.write('content/news/first-post.md', `${original}\nSecond save.`);
    await expect.poll(() => text(`${dev.url}/news/first-post`)).toContain('Second save.');
  });

  it('an editor that empties the file before writing it is not mistaken for an empty article', async () => {
    const fromErr = dev.stderr.length;
    const original = await site.read('content/news/first-post.md');
    truncateSync(site.file('content/news/first-post.md'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    writeFileSync(site.file('content/news/first-post.md'), `${original}\nAfter truncation.`);
    await expect.poll(() => text(`${dev.url}/news/first-post`)).toContain('After truncation.');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(dev.stderr.slice(fromErr)).not.toContain('first-post.md: no date');
  });

  it('never writes the reload code into a build', async () => {
    const result = await site.run(['build']);
    expect(result.code).toBe(0);
    expect(await site.read('dist/about.html')).not.toContain('__ssg');
    expect(existsSync(site.file('.cache/ssg/dev/about.html'))).toBe(true);
    expect(await site.read('.cache/ssg/dev/about.html')).not.toContain('__ssg');
  });

  // Linux only: the helper is found through /proc.
  it.runIf(process.platform === 'linux')(
    'a kept Markdown helper killed from outside is started again by the next save, which it converts',
    async () => {
      const helpers = readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry))
        .filter((entry) => {
          try {
            const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
            return (
              Number(stat.replace(/^.*\) /s, '').split(' ')[1]) === dev.child.pid &&
              readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('markdown-helper')
            );
          } catch {
            return false; // ended meanwhile
          }
        })
        .map(Number);
      expect(helpers.length).toBeGreaterThan(0);
      for (const helper of helpers) process.kill(helper, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const events = await dev.events();
      const original = await site.read('content/news/first-post.md');
      await site.write('content/news/first-post.md', `${original}\nConverted by a new helper.\n`);
      const next = await events.next('reload', (data) => data.pages.includes('/news/first-post'), 30_000);
      expect((next.data as { pages: string[] }).pages).toContain('/news/first-post');
      await expect.poll(() => text(`${dev.url}/news/first-post`)).toContain('Converted by a new helper.');
      events.close();
    },
  );

  it('Ctrl-C stops the watcher and the server within 2 s, exiting 130 as a process ended by SIGINT', async () => {
    const url = dev.url;
    const started = Date.now();
    expect(await dev.stop('SIGINT')).toBe(130);
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(fetch(url)).rejects.toThrow();
  });
});

describe('ssg dev with a broken site at start', () => {
  it('starts anyway, shows the error, and serves the site once it is fixed', async () => {
    const site = await copySite(fixture);
    const original = await site.read('content/news/first-post.md');
    await site.write('content/news/first-post.md', original.replace('tags: [one, two]', 'tags: [one, two'));
    const dev = await DevProcess.start(site.dir);
    try {
      expect(dev.stderr).toMatch(
        /\[FrontMatterInvalidYaml\] The front matter is not valid YAML\n {2}content\/news\/first-post\.md:\d+/,
      );
      const waiting = await fetch(`${dev.url}/`);
      expect(waiting.status).toBe(503);
      const events = await dev.events();
      expect((await events.next('build-error')).data).toEqual([
        expect.objectContaining({ code: 'FrontMatterInvalidYaml' }),
      ]);
      await site.write('content/news/first-post.md', original);
      await events.next('reload');
      await expect.poll(() => text(`${dev.url}/`)).toContain('<h1>Home</h1>');
      events.close();
    } finally {
      await dev.stop();
      await site.dispose();
    }
  });
});

describe('ssg dev and an article designed to hang the conversion', () => {
  it('fails it by name after its time budget (ArticleTooSlow), keeps serving the last good pages and answering, and recovers on the next save', async () => {
    const site = await copySite(fixture);
    const dev = await DevProcess.start(site.dir, ['--article-seconds', '2']);
    try {
      const events = await dev.events();
      const original = await site.read('content/news/2024/second-post.md');
      const started = Date.now();
      await site.write(
        'content/news/2024/second-post.md',
        original.replace('Body of the second post.', `${'*'.repeat(30_000)}x${'*'.repeat(30_000)}`),
      );
      // Meanwhile the server answers: the conversion runs in a helper, not in dev's own process.
      await new Promise((resolve) => setTimeout(resolve, 800));
      const during = Date.now();
      expect(await text(`${dev.url}/news/second-post`)).toContain('Body of the second post.');
      expect(Date.now() - during).toBeLessThan(1000);
      const error = await events.next('build-error', undefined, 30_000);
      expect(error.data).toEqual([
        expect.objectContaining({ code: 'ArticleTooSlow', where: 'content/news/2024/second-post.md' }),
      ]);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(await text(`${dev.url}/news/second-post`)).toContain('Body of the second post.');
      await site.write('content/news/2024/second-post.md', original.replace('Body of the second post.', 'Fixed body.'));
      await events.next('reload', undefined, 30_000);
      await expect.poll(() => text(`${dev.url}/news/second-post`)).toContain('Fixed body.');
      events.close();
    } finally {
      await dev.stop();
      await site.dispose();
    }
  }, 60_000);
});

describe('ssg dev with Markdown plugins, when a run that failed had sent an article to the helper', () => {
  it('a duplicate slug saved with an article that hangs the helper: fixed, every later save converts with the plugins', async () => {
    const site = await copySite(fixture);
    const entry = await site.read('site/index.tsx');
    await site.write(
      'site/index.tsx',
      entry.replace(
        'export default defineSite({',
        "export default defineSite({\n  markdown: { rehypePlugins: [() => (tree: any) => { tree.children.push({ type: 'element', tagName: 'p', properties: {}, children: [{ type: 'text', value: 'Plugged in.' }] }); }] },",
      ),
    );
    const dev = await DevProcess.start(site.dir, ['--article-seconds', '2']);
    try {
      const events = await dev.events();
      const article = (title: string, body: string) => `---\ntitle: ${title}\ndate: "2024-05-10"\n---\n${body}\n`;
      // One run: an article the helper is still converting (it hangs) when the run fails on the duplicate.
      await site.write('content/news/hangs.md', article('Hangs', `${'*'.repeat(30_000)}x${'*'.repeat(30_000)}`));
      await site.write('content/news/copy/first-post.md', article('Copy', 'A copy.'));
      await events.next(
        'build-error',
        (data) => data.some((problem: { code: string }) => problem.code === 'ArticleSlugDuplicate'),
        30_000,
      );
      // Past its time budget: the helper converting it was stopped.
      await new Promise((resolve) => setTimeout(resolve, 2800));
      await site.write('content/news/hangs.md', article('Fixed', 'Fixed now.'));
      await site.remove('content/news/copy');
      await events.next('reload', (data) => data.pages.includes('/news/hangs'), 30_000);
      await expect.poll(() => text(`${dev.url}/news/hangs`)).toContain('Fixed now.');
      const original = await site.read('content/news/first-post.md');
      await site.write('content/news/first-post.md', `${original}\nSaved after.\n`);
      await events.next('reload', (data) => data.pages.includes('/news/first-post'), 30_000);
      const page = await text(`${dev.url}/news/first-post`);
      expect(page).toContain('Saved after.');
      expect(page).toContain('Plugged in.');
      events.close();
    } finally {
      await dev.stop();
      await site.dispose();
    }
  }, 60_000);
});

describe("ssg dev and the site check's warnings", () => {
  it('prints a check warning once while it holds, not at every rebuild; a changed one, or one come back, again', async () => {
    const site = await copySite(fixture);
    const siteYaml = (brand: string) => `baseUrl: https://fixture.example\nbrand: ${brand}\n`;
    await site.write('content/site.yaml', siteYaml('Example'));
    const entry = await site.read('site/index.tsx');
    await site.write(
      'site/index.tsx',
      entry.replace(
        'export default defineSite({',
        [
          'export default defineSite({',
          '  check(data, warn) {',
          '    const { brand } = data.site as { brand?: string };',
          '    if (brand?.startsWith(\'Example\')) warn(`content/site.yaml still has the example brand "${brand}"`);',
          '  },',
        ].join('\n'),
      ),
    );
    const dev = await DevProcess.start(site.dir);
    const said = (brand: string) => dev.stderr.split(`the example brand "${brand}"`).length - 1;
    /**
     * Saves a file and waits for dev's line saying it rebuilt it: named, or counted with another
     * (under load one save may reach the watcher as two changes, the second batched with the next save).
     */
    const save = async (file: string, contents: string) => {
      const from = dev.stdout.length;
      await site.write(file, contents);
      await dev.waitForOutput(new RegExp(`(${file.replace(/[./]/g, '\\$&')}|\\d+ files) changed · `), from, 30_000);
    };
    try {
      await expect.poll(() => said('Example')).toBe(1);
      // Code saves run the check again (site/ changed); it says the same, which is not printed again.
      await save('site/index.tsx', (await site.read('site/index.tsx')).replace('About us', 'About the team'));
      await save('site/index.tsx', (await site.read('site/index.tsx')).replace('About the team', 'About everyone'));
      // Another value is another warning: printed (and the stream's order shows the saves before said nothing).
      await save('content/site.yaml', siteYaml('Example Two'));
      await expect.poll(() => said('Example Two')).toBe(1);
      expect(said('Example'), dev.stderr).toBe(1);
      // Fixed, then back: it matters again, so it is printed again, once.
      await save('content/site.yaml', siteYaml('Acme'));
      await save('content/site.yaml', siteYaml('Example'));
      await expect.poll(() => said('Example')).toBe(2);
      await save('site/index.tsx', (await site.read('site/index.tsx')).replace('About everyone', 'About us'));
      await save('content/site.yaml', siteYaml('Example Three'));
      await expect.poll(() => said('Example Three')).toBe(1);
      expect([said('Example'), said('Example Two')], dev.stderr).toEqual([2, 1]);
    } finally {
      await dev.stop();
      await site.dispose();
    }
  }, 90_000);
});
