import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

/**
 * Markdown (with GitHub's tables, task lists and strikethrough) to HTML. Raw HTML in the source
 * is dropped by remark-rehype (allowDangerousHtml is off), and rehype-sanitize removes anything
 * unsafe that Markdown itself can express, such as `javascript:` link targets.
 */
const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeSanitize)
  .use(rehypeStringify)
  .freeze();

export function markdownToHtml(markdown: string): string {
  return String(processor.processSync(markdown));
}
