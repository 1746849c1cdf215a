import type { Nodes as HastNodes, Root as HastRoot, RootContent as HastContent } from 'hast';
import type { Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Extension } from 'micromark-util-types';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { toHast } from 'mdast-util-to-hast';
import { raw } from 'hast-util-raw';
import { sanitize, type Schema } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { toText } from 'hast-util-to-text';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';

/** An excerpt as a summary shows it: plain text (a meta description) and inline HTML (a list, a feed). */
export interface Excerpt {
  readonly text: string;
  readonly html: string;
}

/** The longest excerpt read, in characters: a summary is a sentence or a paragraph; converting far longer Markdown (emphasis runs) costs time this process must not spend. */
export const MAX_EXCERPT_LENGTH = 10_000;

/**
 * Text that Markdown would show as it is: no inline markup (`*`, `_`, `` ` ``, `~`, links, HTML,
 * entities, escapes), no line break; in a body's excerpt, no start of a block either.
 */
const PLAIN_INLINE = /^[^\\`*_~<>&[\]!\r\n]*$/;
const BLOCK_START = /^[ \t]*(?:[#>+|=-]|\d+[.)]|[ ]{4})/;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Front matter's excerpt is a line of text: Markdown's block syntax is not read in it (`1986. A
 * great year` is no list, `# 1` no heading), HTML in it is inline. A body's excerpt (before
 * `<!--more-->`) is read as the body is.
 */
const INLINE_ONLY: Extension = { disable: { null: ['blockQuote', 'codeFenced', 'codeIndented', 'definition', 'headingAtx', 'htmlFlow', 'list', 'setextUnderline', 'thematicBreak'] } };

/** What a summary keeps: emphasis, strong text, code, strikethrough and line breaks, no attribute; a script or style goes with its content, any other element leaves its text. */
const SUMMARY: Schema = {
  tagNames: ['strong', 'em', 'b', 'i', 'code', 'del', 's', 'br', 'sub', 'sup', 'kbd', 'mark'],
  attributes: {},
  strip: ['script', 'style', 'template', 'textarea', 'title', 'noscript', 'iframe', 'object', 'svg', 'math'],
  ancestors: {},
  protocols: {},
  required: {},
  clobber: [],
  clobberPrefix: '',
};

/**
 * An excerpt written in Markdown (front matter's `excerpt`, `from: 'front matter'`, or the body
 * before `<!--more-->`, `from: 'body'`) as a summary shows it: its emphasis, strong text, code,
 * strikethrough and `<br>` kept, its blocks' text joined into one paragraph. Links keep only their
 * text (a summary is itself inside a link on a list), images their description; HTML is parsed as
 * a browser parses it and sanitised to those few elements, with no attributes.
 */
export function excerptFromMarkdown(markdown: string, from: 'front matter' | 'body' = 'front matter'): Excerpt {
  if (PLAIN_INLINE.test(markdown) && (from === 'front matter' || !BLOCK_START.test(markdown))) {
    const text = collapse(markdown);
    return { text, html: escapeHtml(text) };
  }
  const tree = fromMarkdown(markdown, { extensions: [gfmStrikethrough(), ...(from === 'front matter' ? [INLINE_ONLY] : [])], mdastExtensions: [gfmStrikethroughFromMarkdown()] });
  imagesAsText(tree);
  const hast = toHast(tree, { allowDangerousHtml: true }) as HastNodes;
  const parsed = sanitize(raw(hast), SUMMARY) as HastRoot;
  const html = collapse(toHtml(parsed.children as HastContent[], { characterReferences: { useNamedReferences: true } })).replace(/<br> /g, '<br>');
  return { text: collapse(toText(parsed, { whitespace: 'normal' })), html };
}

/** Every image as its description (a summary shows no picture). */
function imagesAsText(node: Root | Root['children'][number]): void {
  if (!('children' in node)) return;
  node.children = node.children.map((child) => (child.type === 'image' || child.type === 'imageReference' ? { type: 'text', value: child.alt ?? '' } : child)) as typeof node.children;
  for (const child of node.children) imagesAsText(child);
}
