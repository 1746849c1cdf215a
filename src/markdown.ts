import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified, type Processor } from 'unified';

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

/**
 * Markdown to HTML. Raw HTML in the source is dropped by remark-rehype (allowDangerousHtml is
 * off), and rehype-sanitize removes anything unsafe that Markdown itself can express, such as
 * `javascript:` link targets.
 */
const processor = unified()
  .use(remarkParse)
  .use(remarkGfmTables)
  .use(remarkRehype)
  .use(rehypeSanitize)
  .use(rehypeStringify)
  .freeze();

/** The Markdown syntax tree, with positions, as the conversion sees it (GitHub tables included). */
export function parseMarkdownTree(markdown: string) {
  return processor.parse(markdown);
}

export function markdownToHtml(markdown: string): string {
  return String(processor.processSync(markdown));
}
