import { existsSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger, { slug } from 'github-slugger';
import type { Element, ElementContent, Root as HastRoot, RootContent as HastContent } from 'hast';
import { toString as hastText } from 'hast-util-to-string';
import type { Root as MdastRoot, RootContent as MdastContent } from 'mdast';
import { SKIP, walkTree } from '../base/trees.ts';
import rehypeAutolinkHeadings from 'rehype-autolink-headings';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import { slugOf } from './slug.ts';
import { type ArticleHeading } from './article.ts';
import { rehypeAlerts } from './markdown-alerts.ts';
import { rehypeCodeBlocks, remarkCodeMeta } from './markdown-code.ts';
import { rehypeArticleWords, type ArticleWords } from './article-words.ts';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified, type PluggableList } from 'unified';
import { VFile as VFileClass, type VFile } from 'vfile';
import { sitePlugins, withAllowed } from './markdown-plugins.ts';
import { articleLinkTarget } from './article-links.ts';
import { convertMdx, MDX_EXTENSION, withSources } from '../mdx/mdx.ts';

import { changesMarkdown, type MarkdownOptions } from './markdown-options.ts';
import {
  articleSchema,
  FOOTNOTE_PREFIX,
  rehypeClobberIds,
  rehypeLinkIds,
  rehypeNoteRemovedHtml,
  rehypeLowercaseSchemes,
  rehypeRawWhenPresent,
  type RemovedHtml,
} from './markdown-html.ts';
import { remarkEscapeRawTextTags } from './raw-text-tags.ts';
import {
  rehypeArticleImages,
  rehypeNoteImageUrls,
  remarkNoteImageUrls,
  type ArticleImageContext,
  type ArticleImageRecord,
} from '../images/article-images.ts';

export { articleLinkTarget };

/**
 * Whether the article holds raw HTML (comments aside): only then is the tree parsed again as HTML
 * (rehype-raw), which costs as much as the rest of the conversion.
 */
function remarkNoteRawHtml() {
  return (tree: MdastRoot, file: VFile) => {
    let found = false;
    walkTree<MdastContent>(tree, (node) => {
      if (node.type === 'html') found = true;
    });
    file.data.rawHtml = found;
  };
}

function remarkArticleLinks() {
  return (tree: MdastRoot, file: VFile) => {
    const from = typeof file.path === 'string' ? file.path.split('\\').join('/') : undefined;
    const root = (file.data as { imageContext?: { root?: string } }).imageContext?.root;
    const exists = (target: string) => root !== undefined && existsSync(path.join(root, target));
    walkTree<MdastContent>(tree, (node) => {
      if ((node.type === 'link' || node.type === 'definition') && node.url)
        node.url = articleLinkTarget(node.url, from, exists);
    });
  };
}

/** The visible `#` after each heading, linking to it; its label says what it is to a screen reader. */
const headingAnchor = {
  behavior: 'append' as const,
  properties: (heading: Element) => {
    const text = hastText(heading).trim();
    return {
      className: ['heading-anchor'],
      ariaLabel: text ? `Link to the section “${text}”` : 'Link to this section',
    };
  },
  content: { type: 'text', value: '#' } as ElementContent,
};

const HEADING = /^h[1-6]$/;

/**
 * An id on every heading, as GitHub makes them (`## Set-up & keys` → `set-up--keys`), unique in
 * the article (`-1`, `-2` after repeats) and never one an element already has (a footnote, raw
 * HTML); a heading with no letters to make one of is `section`. The footnotes' own hidden
 * heading keeps its id.
 */
function rehypeHeadingIds(reservedIds: readonly string[] = []) {
  return (tree: HastRoot, file: VFile) => {
    const slugger = new GithubSlugger();
    for (const id of reservedIds) slugger.slug(id);
    const headings: Element[] = [];
    const takeId = (node: HastContent) => {
      if (node.type === 'element' && typeof node.properties.id === 'string') slugger.slug(node.properties.id);
    };
    walkTree<HastContent>(tree, (node) => {
      if (node.type !== 'element') return undefined;
      if (node.properties.dataFootnotes !== undefined) {
        // The footnotes' ids are taken, their hidden heading's among them.
        takeId(node);
        walkTree<HastContent>(node, takeId);
        return SKIP;
      }
      // A heading's own id (raw HTML) is taken too; the others get theirs below.
      if (HEADING.test(node.tagName)) headings.push(node);
      takeId(node);
      return undefined;
    });
    const outline: ArticleHeading[] = [];
    for (const heading of headings) {
      const text = hastText(heading).replace(/\s+/g, ' ').trim();
      // An id written in raw HTML stays (prefixed by the sanitiser; links to it point there).
      const id =
        typeof heading.properties.id === 'string' ? heading.properties.id : slugger.slug(slug(text) || 'section');
      heading.properties.id = id;
      outline.push({ depth: Number(heading.tagName[1]), id, text });
    }
    file.data.headings = outline;
    file.data.words = countWords(hastText(tree));
  };
}

/** The words of a text: runs of letters or digits (a CJK character counts as one word). */
function countWords(text: string): number {
  let count = 0;
  for (const _ of text.matchAll(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}\p{M}'’_-]+/gu))
    count++;
  return count;
}

const isFootnoteLabel = (element: Element) =>
  Array.isArray(element.properties.className) && element.properties.className.includes('sr-only');

/**
 * The steps of an article's conversion, for Markdown and MDX alike. Markdown is converted as GitHub
 * renders it: all of GFM (tables, strikethrough, task lists, autolinked URLs and e-mail addresses,
 * footnotes), raw HTML parsed and sanitised with GitHub's schema (what it removes noted first, for
 * a warning with the line). MDX has no raw HTML (it writes JSX, which is code): nothing is
 * sanitised. The site's own plugins run after the built-in ones of their tree, before sanitising.
 * Images, highlighting, heading ids and anchors come after: they are the generator's own markup,
 * made from the text, with classes only (no style attribute, so the Content-Security-Policy holds).
 */
export function articleSteps(options: MarkdownOptions = {}, mdx = false) {
  const schema = withAllowed(articleSchema, options.allow);
  const remarkPlugins: PluggableList = [
    remarkGfm,
    ...(mdx ? [] : [remarkNoteRawHtml, remarkEscapeRawTextTags]),
    remarkArticleLinks,
    remarkNoteImageUrls,
    remarkCodeMeta,
    sitePlugins(options.remarkPlugins, 'remarkPlugins'),
  ];
  const rehypePlugins: PluggableList = [
    ...(mdx ? [] : [rehypeRawWhenPresent]),
    rehypeNoteImageUrls,
    sitePlugins(options.rehypePlugins, 'rehypePlugins'),
    ...(mdx
      ? [rehypeClobberIds]
      : ([
          [rehypeLowercaseSchemes, schema],
          [rehypeNoteRemovedHtml, schema],
          [rehypeSanitize, schema],
        ] as PluggableList)),
    rehypeLinkIds,
    rehypeAlerts,
    // Given an article's image context (convertArticle): its images checked, processed, and replaced.
    rehypeArticleImages,
    // Only fences that name their language: guessing it costs more than the rest of the pipeline.
    [rehypeHighlight, { detect: false }],
    [rehypeHeadingIds, options.reservedIds],
    [rehypeAutolinkHeadings, { ...headingAnchor, test: (element: Element) => !isFootnoteLabel(element) }],
    // After the words are counted: the copy buttons are no words of the article.
    rehypeCodeBlocks,
    // The footnotes' heading and back links in the article's language.
    rehypeArticleWords,
  ];
  const remarkRehypeOptions = { clobberPrefix: FOOTNOTE_PREFIX };
  return { remarkPlugins, rehypePlugins, remarkRehypeOptions };
}

function createProcessor(options: MarkdownOptions = {}) {
  const steps = articleSteps(options);
  return unified()
    .use(remarkParse)
    .use(steps.remarkPlugins)
    .use(remarkRehype, { allowDangerousHtml: true, ...steps.remarkRehypeOptions })
    .use(steps.rehypePlugins)
    .use(rehypeStringify)
    .freeze();
}

const processor = createProcessor();
const processors = new WeakMap<MarkdownOptions, ReturnType<typeof createProcessor>>();

/** The processor with a site's options, made once for them. */
function processorFor(options: MarkdownOptions | undefined) {
  if (!changesMarkdown(options)) return processor;
  let made = processors.get(options);
  if (!made) processors.set(options, (made = createProcessor(options)));
  return made;
}

export interface ConvertedMarkdown {
  html: string;
  /** What the sanitiser removed, with its line (in the Markdown given). */
  removedHtml: RemovedHtml[];
  /** What the article's images were made from, when it shows any. */
  images?: ArticleImageRecord;
  /** Its headings, in order, for a table of contents. */
  headings: ArticleHeading[];
  /** How many words it has, for its reading time. */
  words: number;
}

const converted = (file: VFile): ConvertedMarkdown => {
  const result: ConvertedMarkdown = {
    html: String(file),
    removedHtml: (file.data.removedHtml as RemovedHtml[] | undefined) ?? [],
    headings: (file.data.headings as ArticleHeading[] | undefined) ?? [],
    words: (file.data.words as number | undefined) ?? 0,
  };
  if (file.data.images) result.images = file.data.images as ArticleImageRecord;
  return result;
};

/** Markdown to HTML, images left as written. */
export function convertMarkdown(markdown: string): ConvertedMarkdown {
  return converted(processor.processSync(markdown));
}

/** An article's Markdown to HTML with the site's plugins, its images checked, processed and shown as pictures. */
export async function convertArticle(
  markdown: string,
  imageContext: ArticleImageContext,
  options?: MarkdownOptions,
  /** The generator's words in the article's language (English without). */
  words?: ArticleWords,
): Promise<ConvertedMarkdown> {
  const file = new VFileClass({
    value: markdown,
    path: imageContext.file,
    data: { imageContext, slug: slugOf(imageContext.file), ...(words ? { articleWords: words } : {}) },
  });
  if (!MDX_EXTENSION.test(imageContext.file)) return converted(await processorFor(options).process(file));
  const steps = articleSteps(options, true);
  const mdx = await convertMdx(file, steps, {
    root: imageContext.root,
    cacheDir: imageContext.cacheDir ?? path.join(imageContext.root, '.cache', 'ssg'),
    bodyLine: imageContext.bodyLine,
  });
  const result = converted(file);
  const images = withSources(result.images, mdx.sources, imageContext.root);
  return { ...result, html: mdx.html, ...(images ? { images } : {}) };
}

export function markdownToHtml(markdown: string): string {
  return convertMarkdown(markdown).html;
}
