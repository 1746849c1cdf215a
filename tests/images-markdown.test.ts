import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArticle, slugOf } from '../src/content/articles.ts';
import { SsgError, SsgErrorList } from '../src/errors.ts';
import { bodyLineOffset, findImageReferences, markdownHtml, processArticleImages, resolveImageFile, type ArticleImageOptions } from '../src/images/article-images.ts';
import { openImageCache } from '../src/images/image-cache.ts';
import { markdownToHtml } from '../src/content/markdown.ts';

const settings = { widths: [16, 32], maxPixels: 1_000_000, quality: { avif: 40, webp: 60, jpeg: 70 }, avifEffort: 0, timeoutSeconds: 30 };
let root: string;
let options: ArticleImageOptions;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'ssg-article-images-'));
  mkdirSync(path.join(root, 'content/news/charts'), { recursive: true });
  mkdirSync(path.join(root, 'site/public/images'), { recursive: true });
  const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: 'teal' } }).png().toBuffer();
  writeFileSync(path.join(root, 'content/news/charts/chart.png'), await png(40, 30));
  writeFileSync(path.join(root, 'content/news/charts/my chart.png'), await png(20, 10));
  writeFileSync(path.join(root, 'content/news/charts/logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="12" height="8"/>');
  writeFileSync(path.join(root, 'content/news/charts/notes.txt'), 'not an image');
  writeFileSync(path.join(root, 'site/public/images/shared.png'), await png(24, 24));
  writeFileSync(path.join(root, 'secret.png'), await png(4, 4));
  options = {
    root,
    articlesDir: path.join(root, 'content/news'),
    publicDir: path.join(root, 'site/public'),
    cache: openImageCache({ cacheDir: path.join(root, '.cache'), settings, assetsDir: 'assets' }),
    assetsDir: 'assets',
    sizes: '100vw',
  };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An article as the build has it: parsed, its Markdown converted; the file written for line numbers. */
function article(body: string, file = 'content/news/charts/index.md') {
  const text = `---\ntitle: Charts\ndate: "2025-01-01"\n---\n${body}`;
  writeFileSync(path.join(root, file), text);
  const parsed = parseArticle({ file, text }, { now: new Date(), warn: () => {} });
  parsed.html = markdownToHtml(parsed.markdown);
  return parsed;
}

async function failure(promise: Promise<unknown>): Promise<SsgError[]> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  if (error instanceof SsgErrorList) return error.errors;
  if (error instanceof SsgError) return [error];
  throw new Error(`expected a build error, got ${String(error)}`);
}

describe('page bundles', () => {
  it('take their slug from the folder; plain files keep theirs', () => {
    expect(slugOf('content/news/charts/index.md')).toBe('charts');
    expect(slugOf('content/news/2024/charts/INDEX.md')).toBe('charts');
    expect(slugOf('content/news/charts.md')).toBe('charts');
    expect(slugOf('content/news/index-of-things.md')).toBe('index-of-things');
  });
});

describe('findImageReferences', () => {
  it('finds inline and reference images in order, with their lines; undefined references are text', () => {
    const markdown = 'Text\n\n![One](./a.png "Title")\n\n| x |\n| - |\n| ![Two][b] |\n\n![Three][nowhere]\n\n[b]: ./b.png\n\n```\n![not](./code.png)\n```\n';
    expect(findImageReferences(markdown)).toEqual([
      { url: './a.png', alt: 'One', title: 'Title', line: 3 },
      { url: './b.png', alt: 'Two', line: 7 },
    ]);
  });

  it('finds as many images as the HTML shows, for random and malformed Markdown', () => {
    const piece = fc.oneof(
      fc.constantFrom('![a](x.png)', '![](y.png)', '![a][r]', '[r]: z.png', '![unclosed(', '![a](<sp ace.png>)', '```\n![c](code.png)\n```', '![a](x.png "t")', '> ![q](q.png)', '- ![l](l.png)', '![a](javascript:alert(1))', '![a](data:image/png;base64,AA)', '| ![t](t.png) |\n| - |'),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const markdown = pieces.join('\n\n');
        const html = markdownToHtml(markdown);
        expect(findImageReferences(markdown).length).toBe((html.match(/<img\b/g) ?? []).length);
      }),
      { numRuns: 150 },
    );
  });

  it('counts the body lines after the front matter', () => {
    expect(bodyLineOffset('---\ntitle: x\n---\nbody')).toBe(3);
    expect(bodyLineOffset('\uFEFF---\r\na: 1\r\nb: 2\r\n---\r\nbody')).toBe(4);
    expect(bodyLineOffset('no front matter')).toBe(0);
  });
});

describe('resolveImageFile', () => {
  const reference = (url: string) => ({ url, alt: 'x', line: 9 });
  const file = 'content/news/charts/index.md';
  it('finds files beside the article (percent-encoded too) and in the public folder', () => {
    expect(resolveImageFile(reference('./chart.png'), file, options)).toBe(path.join(root, 'content/news/charts/chart.png'));
    expect(resolveImageFile(reference('my%20chart.png?v=1#top'), file, options)).toBe(path.join(root, 'content/news/charts/my chart.png'));
    expect(resolveImageFile(reference('/images/shared.png'), file, options)).toBe(path.join(root, 'site/public/images/shared.png'));
  });

  it('refuses other origins, missing files and paths that leave their folder, naming file and line', () => {
    const cases: Array<[string, string]> = [
      ['https://cdn.example.org/a.png', 'ImageRemote'],
      ['//cdn.example.org/a.png', 'ImageRemote'],
      ['data:image/png;base64,AAAA', 'ImageRemote'],
      ['./missing.png', 'ImageMissing'],
      ['../../../secret.png', 'ImageMissing'],
      ['/../../secret.png', 'ImageMissing'],
      ['%E0%A4%A.png', 'ImageMissing'],
      ['', 'ImageMissing'],
      ['./', 'ImageMissing'],
    ];
    for (const [url, code] of cases) {
      const result = resolveImageFile(reference(url), file, options);
      expect(result, url).toBeInstanceOf(SsgError);
      expect((result as SsgError).code, url).toBe(code);
      expect((result as SsgError).where, url).toBe(`${file}:9`);
    }
  });

  it('never resolves outside the articles or public folder, whatever the URL', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('..', '.', 'charts', '%2e%2e', 'chart.png', '', '/', '%2F', 'secret.png', '\\'), { maxLength: 8 }), (parts) => {
        const result = resolveImageFile(reference(parts.join('/')), file, options);
        if (typeof result === 'string') expect(result.startsWith(options.articlesDir + path.sep) || result.startsWith(options.publicDir + path.sep)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('processArticleImages', () => {
  it('replaces each image by a <picture>, the first eager, the rest lazy, and returns the files', async () => {
    const item = article('Intro\n\n![A chart](./chart.png)\n\n```js\nconst x = 1;\n```\n\n![Shared](/images/shared.png)\n\n![Logo](./logo.svg)\n\n![Again](chart.png)\n');
    const { files, sources } = await processArticleImages([item], options);
    const pictures = item.html.match(/<picture>.*?<\/picture>/g) ?? [];
    expect(pictures).toHaveLength(3);
    expect(pictures[0]).toContain('type="image/avif"');
    expect(pictures[0]).toContain('type="image/webp"');
    expect(pictures[0]).toContain('width="40" height="30"');
    expect(pictures[0]).not.toContain('loading=');
    for (const later of pictures.slice(1)) expect(later).toContain('loading="lazy"');
    expect(item.html).toMatch(/<img src="\/assets\/logo-[0-9a-f]{10}\.svg" width="12" height="8" alt="Logo" loading="lazy" decoding="async">/);
    expect(item.html).toContain('<code class="hljs language-js"><span class="hljs-keyword">const</span> x = <span class="hljs-number">1</span>;');
    // One set of variants for the image shown twice; every src in the HTML is a returned file.
    const paths = new Set(files.map((file) => `/${file.path}`));
    expect(paths.size).toBe(files.length);
    for (const match of item.html.matchAll(/\/assets\/[^" ,]+/g)) expect(paths.has(match[0])).toBe(true);
    // The files read, once each: what dev mode watches for this article.
    expect(sources).toEqual([path.join(options.articlesDir, 'charts/chart.png'), path.join(options.articlesDir, 'charts/logo.svg'), path.join(options.publicDir, 'images/shared.png')].sort());
    // A second pass (dev mode re-rendering) starts from the Markdown's HTML, not the rewritten one.
    expect(markdownHtml(item)).toContain('<img src="./chart.png" alt="A chart">');
    const html = item.html;
    await processArticleImages([item], options);
    expect(item.html).toBe(html);
  });

  it('allows a decorative image written ![""](…) with an empty alt; refuses a missing alt', async () => {
    const item = article('![""](./chart.png)\n');
    await processArticleImages([item], options);
    expect(item.html).toContain('alt=""');
    const errors = await failure(processArticleImages([article('Text\n\n![](./chart.png)\n\n![  ](./chart.png)\n')], options));
    expect(errors.map((error) => [error.code, error.where])).toEqual([
      ['ImageAltMissing', 'content/news/charts/index.md:7'],
      ['ImageAltMissing', 'content/news/charts/index.md:9'],
    ]);
  });

  it('reports every problem of every article at once, with file and line', async () => {
    const one = article('![A](./missing.png)\n\n![B](https://example.org/b.png)\n');
    const two = article('\n\n![C](./notes.txt)\n', 'content/news/charts/other.md');
    const errors = await failure(processArticleImages([one, two], options));
    expect(errors.map((error) => [error.code, error.where])).toEqual([
      ['ImageMissing', 'content/news/charts/index.md:5'],
      ['ImageRemote', 'content/news/charts/index.md:7'],
    ]);
    const unsupported = await failure(processArticleImages([two], options));
    expect(unsupported[0]!.code).toBe('ImageUnreadable');
    expect(unsupported[0]!.file).toBe('content/news/charts/notes.txt');
  });

  it('leaves articles without images untouched', async () => {
    const item = article('Just text and `![code](./nothing.png)`.\n');
    const before = item.html;
    expect(await processArticleImages([item], options)).toEqual({ files: [], sources: [] });
    expect(item.html).toBe(before);
  });
});
