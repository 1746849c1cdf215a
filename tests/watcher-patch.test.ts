// chokidar, as patched by patches/chokidar+*.patch (applied by `npm ci`'s postinstall): a change to
// a file's content does not make it read the whole folder again, while files and folders that come,
// go or move in are still seen. Dev mode relies on both.
import { mkdir, mkdtemp, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const FILES = 200;

describe('the patched chokidar', () => {
  let dir: string;
  let watcher: FSWatcher;
  let folderReads: string[];
  let events: string[];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ssg-watch-'));
    await mkdir(path.join(dir, 'news'));
    await Promise.all(Array.from({ length: FILES }, (_, index) => writeFile(path.join(dir, 'news', `article-${index}.md`), `# ${index}\n`)));
    watcher = watch(dir, { ignoreInitial: true });
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    events = [];
    watcher.on('all', (event, file) => events.push(`${event} ${path.relative(dir, file)}`));
    // The one place chokidar reads a folder's entries (with an lstat each): counted to see it is skipped.
    const internals = watcher as unknown as { _readdirp: (root: string, options: unknown) => unknown };
    const readdirp = internals._readdirp.bind(watcher);
    folderReads = [];
    internals._readdirp = (root, options) => {
      folderReads.push(path.relative(dir, root));
      return readdirp(root, options);
    };
  });

  afterEach(async () => {
    await watcher.close();
    await rm(dir, { recursive: true, force: true });
  });

  const seen = (event: string) => expect.poll(() => events, { timeout: 5000 }).toContain(event);

  it('reports an edit in place without reading the folder again', async () => {
    for (let edit = 0; edit < 3; edit++) {
      await writeFile(path.join(dir, 'news', `article-${edit * 7}.md`), `# edited ${edit}\n`);
      await seen(`change news/article-${edit * 7}.md`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(folderReads).toEqual([]);
  });

  it('still sees files added, removed and renamed, and a folder moved in with its files', async () => {
    await writeFile(path.join(dir, 'news', 'new.md'), '# new\n');
    await seen('add news/new.md');
    await unlink(path.join(dir, 'news', 'article-1.md'));
    await seen('unlink news/article-1.md');
    await rename(path.join(dir, 'news', 'article-2.md'), path.join(dir, 'news', 'renamed.md'));
    await seen('unlink news/article-2.md');
    await seen('add news/renamed.md');
    const outside = await mkdtemp(path.join(tmpdir(), 'ssg-watch-bundle-'));
    await writeFile(path.join(outside, 'index.md'), '# bundle\n');
    await rename(outside, path.join(dir, 'news', 'bundle'));
    await seen('addDir news/bundle');
    await seen('add news/bundle/index.md');
    expect(folderReads.length).toBeGreaterThan(0);
  });
});
