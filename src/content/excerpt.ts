import type { Nodes as HastNodes, RootContent as HastContent } from 'hast';
import type { Nodes, Paragraph, PhrasingContent, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { toString } from 'mdast-util-to-string';
import { toHast } from 'mdast-util-to-hast';
import { toHtml } from 'hast-util-to-html';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';

/** An excerpt as a summary shows it: plain text (a meta description) and inline HTML (a list, a feed). */
export interface Excerpt {
  readonly text: string;
  readonly html: string;
}

/**
 * Text that Markdown would show as it is: no inline markup (`*`, `_`, `` ` ``, `~`, links, HTML,
 * entities, escapes), no line break, and no start of a block (a heading, list, quote or table).
 */
const PLAIN = /^(?![ \t]*(?:[#>+|=-]|\d+[.)]|[ ]{4}))[^\\`*_~<>&[\]!\r\n]*$/;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * An excerpt written in Markdown (front matter's `excerpt`, or the body before `<!--more-->`) as a
 * summary shows it: its emphasis, strong text, code and strikethrough kept, its blocks' text joined
 * into one paragraph, `<br>` a line break (a space in the text). Links keep only their text (a
 * summary is itself inside a link on a list), images their description; other HTML is left out,
 * its text kept. The HTML is built from a tree of known elements, with no attributes.
 */
export function excerptFromMarkdown(markdown: string): Excerpt {
  if (PLAIN.test(markdown)) {
    const text = collapse(markdown);
    return { text, html: escapeHtml(text) };
  }
  const tree = fromMarkdown(markdown, { extensions: [gfmStrikethrough()], mdastExtensions: [gfmStrikethroughFromMarkdown()] });
  const phrasing: PhrasingContent[] = [];
  for (const block of tree.children) {
    const inline = inlineOf(block);
    if (inline.length === 0) continue;
    if (phrasing.length > 0) phrasing.push({ type: 'text', value: ' ' });
    phrasing.push(...inline);
  }
  const paragraph: Paragraph = { type: 'paragraph', children: phrasing.flatMap(summaryPhrasing) };
  const text = collapse(paragraph.children.map((node) => (node.type === 'break' ? ' ' : toString(node))).join(''));
  const hast = toHast(paragraph) as HastNodes;
  const html = 'children' in hast ? toHtml(hast.children as HastContent[], { characterReferences: { useNamedReferences: true } }).replace(/\s+/g, ' ').replace(/<br> /g, '<br>').trim() : '';
  return { text, html };
}

/** A block's inline content: a paragraph's or heading's own, code as code, anything else its text. */
function inlineOf(block: RootContent): PhrasingContent[] {
  if (block.type === 'paragraph' || block.type === 'heading') return block.children;
  if (block.type === 'code') return block.value.trim() === '' ? [] : [{ type: 'inlineCode', value: block.value }];
  if (block.type === 'html') return brOrNothing(block.value);
  const text = toString(block as Nodes).trim();
  return text === '' ? [] : [{ type: 'text', value: text }];
}

const BR = /^<br\s*\/?>$/i;
const brOrNothing = (html: string): PhrasingContent[] => (BR.test(html.trim()) ? [{ type: 'break' }] : []);

/** One node of the summary: links and references by their text, images by their description, HTML left out (`<br>` a break). */
function summaryPhrasing(node: PhrasingContent): PhrasingContent[] {
  switch (node.type) {
    case 'link':
    case 'linkReference':
      return node.children.flatMap(summaryPhrasing);
    case 'image':
    case 'imageReference':
      return node.alt ? [{ type: 'text', value: node.alt }] : [];
    case 'html':
      return brOrNothing(node.value);
    case 'footnoteReference':
      return [];
    case 'emphasis':
    case 'strong':
    case 'delete':
      return [{ ...node, children: node.children.flatMap(summaryPhrasing) } as PhrasingContent];
    default:
      return [node];
  }
}
