import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import GithubSlugger, { slug } from 'github-slugger';
import type { Element, ElementContent, Root as HastRoot } from 'hast';
import { toString as hastText } from 'hast-util-to-string';
import type { Root as MdastRoot } from 'mdast';
import rehypeAutolinkHeadings from 'rehype-autolink-headings';
import rehypeHighlight from 'rehype-highlight';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified, type Processor } from 'unified';
import { VFile as VFileClass, type VFile } from 'vfile';
import { rehypeArticleImages, rehypeNoteImageUrls, remarkNoteImageUrls, type ArticleImageContext, type ArticleImageRecord } from '../images/article-images.ts';

/**
 * GitHub's tables, strikethrough and task lists. Not its autolinking of bare URLs and its
 * footnotes: together they make parsing half again slower, and news links are written as
 * [text](url) or <url>, which CommonMark links already.
 */
function remarkGfmTables(this: Processor) {
  const data = this.data() as { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push(gfmTable(), gfmStrikethrough(), gfmTaskListItem());
  (data.fromMarkdownExtensions ??= []).push(gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown(), gfmTaskListItemFromMarkdown());
}

type MdastNode = { type: string; url?: string; value?: string; position?: { start: { line: number } }; children?: MdastNode[] };

/** Calls `visit` on every node of a Markdown tree, depth first, without recursion limits. */
function eachNode(root: MdastNode, visit: (node: MdastNode) => void): void {
  const stack: MdastNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    visit(node);
    if (node.children) for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
}

/** An HTML comment only: dropping it loses nothing the reader would have seen. */
const COMMENT_ONLY = /^\s*<!--[\s\S]*?-->\s*$/;

/**
 * Raw HTML is dropped (remark-rehype without allowDangerousHtml); this notes the line of each
 * piece, so the build can say where instead of the text vanishing silently.
 */
function remarkNoteRawHtml() {
  return (tree: MdastRoot, file: VFile) => {
    const lines: number[] = [];
    eachNode(tree as MdastNode, (node) => {
      if (node.type === 'html' && !COMMENT_ONLY.test(node.value ?? '') && node.position) lines.push(node.position.start.line);
    });
    file.data.rawHtmlLines = [...new Set(lines)];
  };
}

/** A link target with no scheme, not absolute and not only a fragment: `other-post.md#part`. */
const RELATIVE_MARKDOWN = /^(?![a-z][a-z0-9+.-]*:|\/|#)((?:[^?#]*\/)?([^/?#]+))\.md((?:\?[^#]*)?(?:#.*)?)$/i;

/**
 * Articles are served side by side under their slug, whatever folder their file is in, so a link
 * to `other-post.md` (or `../2024/other-post.md`) becomes the relative URL `other-post`.
 */
export function articleLinkTarget(url: string): string {
  const match = RELATIVE_MARKDOWN.exec(url);
  return match ? `${match[2]!}${match[3]!}` : url;
}

function remarkArticleLinks() {
  return (tree: MdastRoot) => {
    eachNode(tree as MdastNode, (node) => {
      if ((node.type === 'link' || node.type === 'definition') && node.url) node.url = articleLinkTarget(node.url);
    });
  };
}

/** The visible `#` after each heading, linking to it; its label says what it is to a screen reader. */
const headingAnchor = {
  behavior: 'append' as const,
  properties: (heading: Element) => {
    const text = hastText(heading).trim();
    return { className: ['heading-anchor'], ariaLabel: text ? `Link to the section “${text}”` : 'Link to this section' };
  },
  content: { type: 'text', value: '#' } as ElementContent,
};


const HEADING = /^h[1-6]$/;

/**
 * An id on every heading, as GitHub makes them (`## Set-up & keys` → `set-up--keys`), unique in
 * the article (`-1`, `-2` after repeats); a heading with no letters to make one of is `section`.
 */
function rehypeHeadingIds() {
  return (tree: HastRoot) => {
    const slugger = new GithubSlugger();
    const stack: Array<HastRoot | ElementContent> = [tree];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.type === 'element' && HEADING.test(node.tagName)) {
        node.properties.id = slugger.slug(slug(hastText(node)) || 'section');
      } else if ('children' in node) {
        for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index] as ElementContent);
      }
    }
  };
}

/**
 * Markdown to HTML. Raw HTML in the source is dropped by remark-rehype (allowDangerousHtml is
 * off), and rehype-sanitize removes anything unsafe that Markdown itself can express, such as
 * `javascript:` link targets. Heading ids, anchors and highlighting come after sanitising: they
 * are made from the text, so they need no `user-content-` prefix, and highlighting gives
 * classes only (no style attribute, so the Content-Security-Policy holds).
 */
const processor = unified()
  .use(remarkParse)
  .use(remarkGfmTables)
  .use(remarkNoteRawHtml)
  .use(remarkArticleLinks)
  .use(remarkNoteImageUrls)
  .use(remarkRehype)
  .use(rehypeNoteImageUrls)
  .use(rehypeSanitize)
  // Given an article's image context (convertArticle): its images checked, processed, and replaced.
  .use(rehypeArticleImages)
  // Only fences that name their language: guessing it costs more than the rest of the pipeline.
  .use(rehypeHighlight, { detect: false })
  .use(rehypeHeadingIds)
  .use(rehypeAutolinkHeadings, headingAnchor)
  .use(rehypeStringify)
  .freeze();

export interface ConvertedMarkdown {
  html: string;
  /** Lines (of the Markdown given) holding raw HTML that was dropped. */
  rawHtmlLines: number[];
  /** What the article's images were made from, when it shows any. */
  images?: ArticleImageRecord;
}

const converted = (file: VFile): ConvertedMarkdown => {
  const result: ConvertedMarkdown = { html: String(file), rawHtmlLines: (file.data.rawHtmlLines as number[] | undefined) ?? [] };
  if (file.data.images) result.images = file.data.images as ArticleImageRecord;
  return result;
};

/** Markdown to HTML, images left as written. */
export function convertMarkdown(markdown: string): ConvertedMarkdown {
  return converted(processor.processSync(markdown));
}

/** An article's Markdown to HTML, its images checked, processed and shown as pictures. */
export async function convertArticle(markdown: string, imageContext: ArticleImageContext): Promise<ConvertedMarkdown> {
  return converted(await processor.process(new VFileClass({ value: markdown, data: { imageContext } })));
}

export function markdownToHtml(markdown: string): string {
  return convertMarkdown(markdown).html;
}
