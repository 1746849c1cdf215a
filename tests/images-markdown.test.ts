import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArticle } from '../src/content/article-parser.ts';
import { slugOf } from '../src/content/slug.ts';
import { SsgError, SsgErrorList } from '../src/errors/errors.ts';
import type { ArticleImageContext } from '../src/images/article-images.ts';
import { resolveImageFile } from '../src/images/image-reference.ts';
import { openImageCache, type ImageCache } from '../src/images/image-cache.ts';
import { convertArticle, markdownToHtml } from '../src/content/markdown.ts';

const settings = {
  widths: [16, 32],
  maxPixels: 1_000_000,
  quality: { avif: 40, webp: 60, jpeg: 70 },
  avifEffort: 0,
  timeoutSeconds: 30,
};
let root: string;
let options: Omit<ArticleImageContext, 'file' | 'bodyLine'> & { cache: ImageCache };

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'ssg-article-images-'));
  mkdirSync(path.join(root, 'content/news/charts'), { recursive: true });
  mkdirSync(path.join(root, 'site/public/images'), { recursive: true });
  const png = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: 'teal' } })
      .png()
      .toBuffer();
  writeFileSync(path.join(root, 'content/news/charts/chart.png'), await png(40, 30));
  writeFileSync(path.join(root, 'content/news/charts/my chart.png'), await png(20, 10));
  writeFileSync(
    path.join(root, 'content/news/charts/logo.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="12" height="8"/>',
  );
  writeFileSync(path.join(root, 'content/news/charts/notes.txt'), 'not an image');
  writeFileSync(path.join(root, 'site/public/images/shared.png'), await png(24, 24));
  writeFileSync(path.join(root, 'secret.png'), await png(4, 4));
  options = {
    root,
    contentDir: path.join(root, 'content/news'),
    publicDir: path.join(root, 'site/public'),
    cache: openImageCache({ cacheDir: path.join(root, '.cache'), settings, assetsDir: 'assets' }),
    assetsDir: 'assets',
    sizes: '100vw',
  };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An article as the build reads it: parsed, its front matter taking the first four lines. */
function article(body: string, file = 'content/news/charts/index.md') {
  const text = `---\ntitle: Charts\ndate: "2025-01-01"\n---\n${body}`;
  writeFileSync(path.join(root, file), text);
  return parseArticle({ file, text }, { now: new Date(), warn: () => {} });
}

/** Converts articles as the build does (with their images), each problem of each collected; their HTML, files to write and files read. */
async function convertAll(articles: ReadonlyArray<ReturnType<typeof article>>) {
  const errors: unknown[] = [];
  const converted = [];
  for (const item of articles) {
    try {
      converted.push(
        await convertArticle(item.markdown, { ...options, file: item.file, bodyLine: item.bodyLine ?? 1 }),
      );
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0)
    throw errors.length === 1
      ? errors[0]
      : new SsgErrorList(
          errors.flatMap((error) => (error instanceof SsgErrorList ? error.errors : [error as SsgError])),
        );
  const files = new Map<string, Uint8Array>();
  for (const { images } of converted) {
    for (const shown of images?.shown ?? []) {
      if (shown.path) files.set(shown.path, new Uint8Array());
      else
        for (const variant of (await options.cache.load(shown.entry!))!.variants)
          files.set(variant.path, variant.contents);
    }
  }
  const sources = [
    ...new Set(converted.flatMap(({ images }) => images?.sources.map((source) => source.file) ?? [])),
  ].sort();
  return {
    html: converted.map((item) => item.html),
    files: [...files].map(([filePath, contents]) => ({ path: filePath, contents })),
    sources,
  };
}

async function failure(promise: Promise<unknown>): Promise<SsgError[]> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
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

describe('images found in the converted tree', () => {
  it('are found in order, reference images too, with their lines in the file; undefined references and code are text', async () => {
    const item = article(
      'Text\n\n![One](./missing-a.png "Title")\n\n| x |\n| - |\n| ![Two][b] |\n\n![Three][nowhere]\n\n[b]: ./missing-b.png\n\n```\n![not](./code.png)\n```\n',
    );
    const errors = await failure(convertAll([item]));
    expect(
      errors.map((error) => [
        error.code,
        error.where,
        error.message.includes('missing-a') || error.message.includes('missing-b'),
      ]),
    ).toEqual([
      ['ImageMissing', 'content/news/charts/index.md:7', true],
      ['ImageMissing', 'content/news/charts/index.md:11', true],
    ]);
  });

  it('every image the HTML would show is checked, for random and malformed Markdown', async () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '![a](x.png)',
        '![](y.png)',
        '![a][r]',
        '[r]: z.png',
        '![unclosed(',
        '![a](<sp ace.png>)',
        '```\n![c](code.png)\n```',
        '![a](x.png "t")',
        '> ![q](q.png)',
        '- ![l](l.png)',
        '![a](javascript:alert(1))',
        '![a](data:image/png;base64,AA)',
        '| ![t](t.png) |\n| - |',
      ),
      fc.string({ maxLength: 20 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 12 }), async (pieces) => {
        const markdown = pieces.join('\n\n');
        const shown = (markdownToHtml(markdown).match(/<img\b/g) ?? []).length;
        // None of these files exist: each image shown is one problem (a missing alt is a second).
        const problems = await failure(convertAll([article(markdown)])).catch(() => []);
        expect(
          new Set(problems.filter((error) => error.code !== 'ImageAltMissing').map((error) => error.where)).size <=
            shown,
        ).toBe(true);
        expect(problems.filter((error) => error.code !== 'ImageAltMissing').length).toBe(shown);
      }),
      { numRuns: 60 },
    );
  });
});

describe('resolveImageFile', () => {
  const reference = (url: string) => ({ url, alt: 'x', line: 9 });
  const file = 'content/news/charts/index.md';
  it('finds files beside the article (percent-encoded too) and in the public folder', () => {
    expect(resolveImageFile(reference('./chart.png'), file, options)).toBe(
      path.join(root, 'content/news/charts/chart.png'),
    );
    expect(resolveImageFile(reference('my%20chart.png?v=1#top'), file, options)).toBe(
      path.join(root, 'content/news/charts/my chart.png'),
    );
    expect(resolveImageFile(reference('/images/shared.png'), file, options)).toBe(
      path.join(root, 'site/public/images/shared.png'),
    );
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
      fc.property(
        fc.array(fc.constantFrom('..', '.', 'charts', '%2e%2e', 'chart.png', '', '/', '%2F', 'secret.png', '\\'), {
          maxLength: 8,
        }),
        (parts) => {
          const result = resolveImageFile(reference(parts.join('/')), file, options);
          if (typeof result === 'string')
            expect(
              result.startsWith(options.contentDir + path.sep) || result.startsWith(options.publicDir + path.sep),
            ).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('article images, converted with the Markdown', () => {
  it('replaces each image by a <picture>, the first eager, the rest lazy, and returns the files', async () => {
    const item = article(
      'Intro\n\n![A chart](./chart.png)\n\n```js\nconst x = 1;\n```\n\n![Shared](/images/shared.png)\n\n![Logo](./logo.svg)\n\n![Again](chart.png)\n',
    );
    const {
      html: [html],
      files,
      sources,
    } = await convertAll([item]);
    const pictures = html!.match(/<picture>.*?<\/picture>/g) ?? [];
    expect(pictures).toHaveLength(3);
    expect(pictures[0]).toContain('type="image/avif"');
    expect(pictures[0]).toContain('type="image/webp"');
    expect(pictures[0]).toContain('width="40" height="30"');
    expect(pictures[0]).not.toContain('loading=');
    for (const later of pictures.slice(1)) expect(later).toContain('loading="lazy"');
    expect(html).toMatch(
      /<img src="\/assets\/logo-[0-9a-f]{10}\.svg" width="12" height="8" alt="Logo" loading="lazy" decoding="async">/,
    );
    expect(html).toContain(
      '<code class="hljs language-js"><span class="hljs-keyword">const</span> x = <span class="hljs-number">1</span>;',
    );
    // One set of variants for the image shown twice; every src in the HTML is a returned file.
    const paths = new Set(files.map((file) => `/${file.path}`));
    expect(paths.size).toBe(files.length);
    for (const match of html!.matchAll(/\/assets\/[^" ,]+/g)) expect(paths.has(match[0])).toBe(true);
    // The files read, once each, named from the project root: what dev mode watches for this article.
    const named = (file: string) => path.relative(options.root, file);
    expect(sources).toEqual(
      [
        named(path.join(options.contentDir, 'charts/chart.png')),
        named(path.join(options.contentDir, 'charts/logo.svg')),
        named(path.join(options.publicDir, 'images/shared.png')),
      ].sort(),
    );
    // The article itself is never changed: converting it again makes the same HTML.
    expect(item.html).toBe('');
    expect((await convertAll([item])).html[0]).toBe(html);
  });

  it("keeps an HTML image's width, height and alignment, in proportion, as attributes and a class", async () => {
    const item = article(
      '<img src="./logo.svg" alt="Logo" width="100" align="right">\n\n<img src="./chart.png" alt="Chart" height="15" align="LEFT">\n\n<img src="./chart.png" alt="Both" width="7" height="9" align="center">\n\n<img src="./chart.png" alt="Odd" width="0x40" align="top">\n',
    );
    const {
      html: [html],
    } = await convertAll([item]);
    // The SVG (12x8) at the width asked, its height in proportion; floated by a class, not a style (the CSP).
    expect(html).toMatch(
      /<img src="\/assets\/logo-[0-9a-f]{10}\.svg" class="align-right" width="100" height="67" alt="Logo"/,
    );
    const pictures = html!.match(/<picture[^>]*>.*?<\/picture>/g) ?? [];
    expect(pictures).toHaveLength(3);
    // The chart (40x30) at the height asked; the browser picks the variant for the width shown.
    expect(pictures[0]).toMatch(/^<picture class="align-left">/);
    expect(pictures[0]).toContain('width="20" height="15"');
    expect(pictures[0]).toContain('sizes="(max-width: 20px) 100vw, 20px"');
    expect(pictures[1]).toMatch(/^<picture class="align-center">/);
    expect(pictures[1]).toContain('width="7" height="9"');
    // What HTML cannot read as pixels, or an alignment that is no float, is the file's own size and no class.
    expect(pictures[2]).toMatch(/^<picture>/);
    expect(pictures[2]).toContain('width="40" height="30"');
    expect(pictures[2]).toContain('sizes="100vw"');
    expect(html).not.toContain('style=');
    // As HTML reads a whole number: the digits at its start (`1e3` is 1, `50%` is 50, ` +8` is 8).
    for (const [written, width] of [
      ['1e3', 1],
      ['50%', 50],
      [' +8', 8],
      ['0', 40],
      ['-5', 40],
      ['x', 40],
    ] as const) {
      const {
        html: [one],
      } = await convertAll([article(`<img src="./chart.png" alt="One" width="${written}">\n`)]);
      expect(one, written).toContain(`width="${width}"`);
    }
  });

  it("points a link to the article's own page and an <a name> at the anchor as written out", async () => {
    const item = article(
      '<a name="top"></a>\n\n[up](/news/this-post#top) [up](this-post/#top) [there](/news/other#top)\n',
      'content/news/this-post.md',
    );
    const {
      html: [html],
    } = await convertAll([item]);
    // Another page's anchor is that page's business (the link check looks there).
    expect(html).toContain(
      '<a href="/news/this-post#user-content-top">up</a> <a href="this-post/#user-content-top">up</a> <a href="/news/other#top">there</a>',
    );
  });

  it('allows a decorative image written ![""](…) with an empty alt; refuses a missing alt', async () => {
    const item = article('![""](./chart.png)\n');
    expect((await convertAll([item])).html[0]).toContain('alt=""');
    const errors = await failure(convertAll([article('Text\n\n![](./chart.png)\n\n![  ](./chart.png)\n')]));
    expect(errors.map((error) => [error.code, error.where])).toEqual([
      ['ImageAltMissing', 'content/news/charts/index.md:7'],
      ['ImageAltMissing', 'content/news/charts/index.md:9'],
    ]);
  });

  it('reports every problem of every article at once, with file and line', async () => {
    const one = article('![A](./missing.png)\n\n![B](https://example.org/b.png)\n');
    const two = article('\n\n![C](./notes.txt)\n', 'content/news/charts/other.md');
    const errors = await failure(convertAll([one, two]));
    // Each article's own problems, the file it could not read (the second's) among them, named at the line showing it.
    expect(errors.map((error) => [error.code, error.where])).toEqual([
      ['ImageMissing', 'content/news/charts/index.md:5'],
      ['ImageRemote', 'content/news/charts/index.md:7'],
      ['ImageUnreadable', 'content/news/charts/other.md:7'],
    ]);
    const unsupported = await failure(convertAll([two]));
    expect(unsupported[0]!.code).toBe('ImageUnreadable');
    expect(unsupported[0]!.message).toMatch(/^content\/news\/charts\/notes\.txt: /);
  });

  it('leaves articles without images untouched', async () => {
    const item = article('Just text and `![code](./nothing.png)`.\n');
    const { html, files, sources } = await convertAll([item]);
    expect({ files, sources }).toEqual({ files: [], sources: [] });
    expect(html[0]).toBe(markdownToHtml(item.markdown));
  });
});
