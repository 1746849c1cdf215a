import { describe, expect, it } from 'vitest';
import type { Article } from '../src/content/article.ts';
import { emptyReads } from '../src/render/dependencies.ts';
import type { RenderContext } from '../src/render/render.ts';
import type { PageJob } from '../src/render/routes.ts';
import { renderPages } from '../src/pipeline/pages.ts';
import type { Conversion, Output, PageSource } from '../src/pipeline/pipeline-types.ts';
import { testArticle } from './helpers/article.ts';

const article = (slug: string) => testArticle(slug, { markdown: 'body' });

const job = (path: string, entry: Record<string, unknown>): PageJob => ({
  route: { path } as PageJob['route'],
  path,
  params: {},
  entry,
  outputPath: `${path.slice(1) || 'index'}.html`,
  notFound: false,
  noindex: false,
});

/** A conversion the test finishes by hand: `finish` makes the article ready and settles it. */
function heldConversion(articles: Article[]) {
  const ready = new Map<Article, Article>();
  let listener: (articles: Article[]) => void = () => {};
  let settle!: () => void;
  const done = new Promise<void>((resolve) => (settle = resolve));
  const conversion: Conversion = {
    ready,
    converted: new Set(),
    listen: (next) => void (listener = next),
    done,
    close: async () => {},
    release: async () => {},
    converting: articles.length,
  };
  const finish = () => {
    for (const item of articles) ready.set(item, { ...item, html: '<p>body</p>' });
    listener(articles);
    settle();
  };
  return { conversion, finish };
}

describe('the pages stage with a page source that answers before the articles are converted (dev)', () => {
  it('takes a page whose entry holds no article as it was at once; one holding an article, even deep in a list, only once its article is ready', async () => {
    const edited = article('edited');
    const plain = job('/about', {});
    const nested = job('/tags/x', { group: { articles: [edited] } });
    const own = job('/news/edited', { article: edited });
    const { conversion, finish } = heldConversion([edited]);
    let converted = false;
    const asked: Array<[string, boolean]> = [];
    const source: PageSource = {
      answersBeforeConversion: true,
      earlier(page) {
        asked.push([page.path, converted]);
        return {
          html: `<!doctype html><title>${page.path}</title>`,
          islands: [],
          reads: emptyReads(),
          links: { path: page.path, ids: new Set(), links: [] },
          hash: page.path,
        };
      },
    };
    const written: string[] = [];
    const output = { write: (file: { path: string }) => void written.push(file.path) } as unknown as Output<unknown>;
    const context = { articles: [edited] } as unknown as RenderContext;
    const pages = renderPages([plain, nested, own], context, conversion, source, output);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(asked).toEqual([['/about', false]]);
    expect(written).toEqual(['about.html']);
    converted = true;
    finish();
    const made = await pages;
    expect(asked.map(([path]) => path).sort()).toEqual(['/about', '/news/edited', '/tags/x']);
    expect(asked.filter(([path]) => path !== '/about').every(([, after]) => after)).toBe(true);
    // The pages' jobs hold the article as converted, deep in the entry too.
    expect((made.get('tags/x.html')!.job.entry.group as { articles: Article[] }).articles[0]!.html).toBe('<p>body</p>');
    expect((made.get('news/edited.html')!.job.entry.article as Article).html).toBe('<p>body</p>');
    expect(made.get('about.html')!.job).toBe(plain);
  });

  it('asks nothing before the conversion when the source cannot tell (build: the page cache)', async () => {
    const edited = article('edited');
    const { conversion, finish } = heldConversion([edited]);
    let converted = false;
    const asked: boolean[] = [];
    const source: PageSource = {
      earlier: () => {
        asked.push(converted);
        return {
          html: '<!doctype html><title>x</title>',
          islands: [],
          reads: emptyReads(),
          links: { path: '/about', ids: new Set(), links: [] },
          hash: 'x',
        };
      },
    };
    const output = { write: () => {} } as unknown as Output<unknown>;
    const pages = renderPages(
      [job('/about', {})],
      { articles: [edited] } as unknown as RenderContext,
      conversion,
      source,
      output,
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(asked).toEqual([]);
    converted = true;
    finish();
    await pages;
    expect(asked).toEqual([true]);
  });
});
