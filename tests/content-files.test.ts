// Files in the articles folder that are not articles are skipped or reported, never a stack trace.
import fc from 'fast-check';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isArticleName, readArticleSources } from '../src/content/article-file.ts';
import { copySite, repoRoot } from './helpers/project.ts';

describe('article file discovery', () => {
  it('skips editor locks, macOS ._ files, README.md, hidden folders and a folder named x.md', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ssg-content-'));
    try {
      const news = path.join(dir, 'content', 'news');
      mkdirSync(path.join(news, 'folder.md'), { recursive: true });
      mkdirSync(path.join(news, '.hidden'), { recursive: true });
      writeFileSync(path.join(news, 'post.md'), '# ok');
      writeFileSync(path.join(news, 'folder.md', 'inner.md'), '# inner');
      writeFileSync(path.join(news, '._post.md'), Buffer.from([0, 5, 22, 7, 0xff]));
      writeFileSync(path.join(news, 'README.md'), 'How to write news.');
      writeFileSync(path.join(news, '.hidden', 'secret.md'), '# no');
      symlinkSync('user@host.1234:1700000000', path.join(news, '.#post.md'));
      symlinkSync('nowhere', path.join(news, 'broken.md'));
      const warnings: string[] = [];
      const sources = await readArticleSources(dir, 'content/news', (message) => warnings.push(message));
      expect(sources.map((source) => source.file)).toEqual([
        path.join('content', 'news', 'folder.md', 'inner.md'),
        path.join('content', 'news', 'post.md'),
      ]);
      expect(warnings).toEqual([`${path.join('content', 'news', 'broken.md')}: a link to nothing; skipped.`]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('property: a name is an article only if it ends in .md, is not README.md and has no hidden part', () => {
    const part = fc.oneof(
      fc.string({ minLength: 1, maxLength: 8 }),
      fc.constantFrom('.#a.md', '._a.md', 'README.md', 'x.md', '.git', 'a.MD'),
    );
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), (parts) => {
        const relative = parts.join('/');
        const name = relative.split(/[\\/]/).pop()!;
        const hidden = relative.split(/[\\/]/).some((segment) => segment.startsWith('.'));
        expect(isArticleName(relative)).toBe(
          name.toLowerCase().endsWith('.md') && name.toLowerCase() !== 'readme.md' && !hidden,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('a build with junk beside the articles succeeds and warns only about the broken link', async () => {
    const site = await copySite(path.join(repoRoot, 'tests', 'fixtures', 'basic'));
    try {
      await site.write('content/news/README.md', 'How to write news.');
      await site.write('content/news/._first-post.md', '\0\u0005binary');
      mkdirSync(site.file('content/news/odd.md'));
      symlinkSync('user@host.99:1', site.file('content/news/.#first-post.md'));
      symlinkSync('gone.md', site.file('content/news/dangling.md'));
      const result = await site.run(['build']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('content/news/dangling.md: a link to nothing; skipped.');
      expect(result.stderr).not.toMatch(/Unexpected internal error|^\s+at /m);
      expect(result.stdout).toContain('(2 articles)');
    } finally {
      await site.dispose();
    }
  });
});
