// MDX articles: converted with the steps of a Markdown article, their components and islands
// rendered to the HTML a page shows, their mistakes named by file and line.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertArticle } from '../src/content/markdown.ts';
import { SsgError, SsgErrorList } from '../src/errors/errors.ts';
import type { ArticleImageContext } from '../src/images/article-images.ts';
import { repoRoot } from './helpers/project.ts';

let root: string;
let context: Omit<ArticleImageContext, 'file' | 'bodyLine'>;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'ssg-mdx-'));
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'));
  mkdirSync(path.join(root, 'content/news/charts'), { recursive: true });
  mkdirSync(path.join(root, 'site/islands'), { recursive: true });
  writeFileSync(
    path.join(root, 'content/news/charts/callout.tsx'),
    'export default function Callout({ title, children }: { title: string; children?: React.ReactNode }) {\n' +
      '  return <aside className="callout"><strong>{title}</strong> {children}</aside>;\n}\n',
  );
  writeFileSync(
    path.join(root, 'content/news/charts/boom.tsx'),
    'export default function Boom(): never {\n  throw new Error("no window here");\n}\n',
  );
  writeFileSync(
    path.join(root, 'site/islands/counter.tsx'),
    "import { useId, useState } from 'react';\nimport { island } from 'ssg';\n" +
      'function Counter({ start }: { start: number }) {\n  const [count, setCount] = useState(start);\n  const id = useId();\n' +
      '  return <button id={id} type="button" onClick={() => setCount(count + 1)}>{count}</button>;\n}\n' +
      "export default island('counter', Counter, { hydrate: 'interaction' });\n",
  );
  context = {
    root,
    contentDir: path.join(root, 'content/news'),
    publicDir: path.join(root, 'site/public'),
    cacheDir: path.join(root, '.cache/ssg'),
    cache: {
      recording: () => {
        throw new Error('no image is processed here');
      },
    },
    assetsDir: 'assets',
    sizes: '100vw',
  };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const convert = (body: string, file = 'content/news/charts/index.mdx', bodyLine = 5) =>
  convertArticle(body, { ...context, file, bodyLine });

/** The catalogue errors a conversion fails with, as `code file:line`. */
async function failure(body: string): Promise<string[]> {
  try {
    await convert(body);
  } catch (error) {
    const errors = error instanceof SsgErrorList ? error.errors : error instanceof SsgError ? [error] : [];
    if (errors.length === 0) throw error;
    return errors.map((problem) => `${problem.code} ${problem.file}:${problem.line ?? ''}`);
  }
  throw new Error('converted without an error');
}

describe('MDX articles', () => {
  it('render a local component and an island, complete, beside Markdown converted as in .md', async () => {
    const body = [
      "import Callout from './callout.tsx';",
      "import Counter from '../../../site/islands/counter.tsx';",
      '',
      '## Set-up & keys',
      '',
      'Some **bold** text, a [link](../hello-world.md#faq) and a note.[^1]',
      '',
      '<Callout title="Note">Inside, {1 + 2} things.</Callout>',
      '',
      '<Counter start={2} />',
      '',
      '```js',
      'const x = 1;',
      '```',
      '',
      '[^1]: The note.',
    ].join('\n');
    const result = await convert(body);
    expect(result.html).toContain('<aside class="callout"><strong>Note</strong> Inside, 3 things.</aside>');
    // The island as the page's renderer writes one: props, its own id prefix, rendered inside.
    const island =
      /<ssg-island data-island="counter" data-hydrate="interaction" data-props="\{&quot;start&quot;:2\}" data-uid="(m[a-z]{8}0)"><button id="_i([^"]+)"/.exec(
        result.html,
      );
    expect(island, result.html).not.toBeNull();
    expect(island![2]).toMatch(new RegExp(`^${island![1]}-`));
    expect(result.html).toContain('>2</button></ssg-island>');
    expect(result.headings).toEqual([{ depth: 2, id: 'set-up--keys', text: 'Set-up & keys' }]);
    expect(result.html).toContain('<a href="hello-world#faq">link</a>');
    expect(result.html).toContain('data-island="ssg-copy-code"');
    expect(result.html).toContain('<span class="hljs-keyword">const</span>');
    // Footnotes get the ids a Markdown article's get.
    const markdown = await convertArticle('A note.[^1]\n\n[^1]: The note.', {
      ...context,
      file: 'content/news/charts/index.md',
      bodyLine: 5,
    });
    const ids = (html: string) => [...html.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]).sort();
    expect(ids((await convert('A note.[^1]\n\n[^1]: The note.')).html)).toEqual(ids(markdown.html));
    // Another article's islands are numbered apart: both may be shown on one page.
    const other = await convert(body, 'content/news/charts/other.mdx');
    const uids = (html: string) => [...html.matchAll(/data-uid="([^"]+)"/g)].map((match) => match[1]);
    expect(uids(other.html)).toHaveLength(1);
    expect(uids(other.html)).not.toEqual(uids(result.html));
    // What it imported is what it depends on besides its text.
    const sources = result.images?.sources.map((source) => source.file).sort();
    expect(sources).toEqual(['content/news/charts/callout.tsx', 'site/islands/counter.tsx']);
    // The module written to be imported is gone.
    expect(readdirSync(path.join(root, '.cache/ssg')).filter((name) => name.startsWith('mdx-'))).toEqual([]);
  });

  it('convert Markdown without JSX as a .md article converts it (fast-check)', async () => {
    const word = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.'-]{0,15}$/).map((text) => text.trim() || 'x');
    const block = fc.oneof(
      word.map((text) => `## ${text}`),
      word.map((text) => `A paragraph with *${text}* and **${text}**.`),
      fc.array(word, { minLength: 1, maxLength: 3 }).map((items) => items.map((item) => `- ${item}`).join('\n')),
      word.map((text) => '```\n' + text + '\n```'),
      word.map((text) => `> ${text}`),
      word.map((text) => `| a | b |\n| - | - |\n| ${text} | 1 |`),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(block, { minLength: 1, maxLength: 5 }), async (blocks) => {
        const body = blocks.join('\n\n');
        const md = await convertArticle(body, { ...context, file: 'content/news/same.md', bodyLine: 1 });
        const mdx = await convertArticle(body, { ...context, file: 'content/news/same.mdx', bodyLine: 1 });
        // MDX keeps no line break between a table's elements, and React escapes quotes in text.
        const normal = (html: string) =>
          html
            .replace(/>\s+</g, '><')
            .replace(/&#x27;/g, "'")
            .replace(/&quot;/g, '"')
            .trim();
        expect(normal(mdx.html)).toBe(normal(md.html));
        expect(mdx.headings).toEqual(md.headings);
        expect(mdx.words).toBe(md.words);
      }),
      { numRuns: 25 },
    );
  });

  it('name the file and line of a syntax error, a missing import and a component that throws', async () => {
    expect(await failure('Fine.\n\n<Callout title="x">never closed\n')).toEqual([
      'MdxInvalid content/news/charts/index.mdx:7',
    ]);
    expect(await failure("Fine.\n\nimport Gone from './gone.tsx';\n\n<Gone />\n")).toEqual([
      'ImportNotFound content/news/charts/index.mdx:7',
    ]);
    expect(await failure("import Boom from './boom.tsx';\n\n<Boom />\n")).toEqual([
      'MdxRenderFailed content/news/charts/index.mdx:',
    ]);
    expect(await failure('Text {undefinedName} here.\n')).toEqual(['MdxRenderFailed content/news/charts/index.mdx:']);
    expect(await failure("import x from 'no-such-package-here';\n\n{x}\n")).toEqual([
      'PackageMissing content/news/charts/index.mdx:5',
    ]);
  });
});
