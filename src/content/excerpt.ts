import type { Nodes as HastNodes, RootContent as HastContent } from 'hast';
import type { Nodes, Paragraph, PhrasingContent, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { toString } from 'mdast-util-to-string';
import { toHast } from 'mdast-util-to-hast';
import { toHtml } from 'hast-util-to-html';
import { Parser } from 'htmlparser2';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import type { Extension } from 'micromark-util-types';
import { catalogueError } from '../errors/errors.ts';
import { keyAt, keyLocation } from './frontmatter.ts';
import { isStackOverflow } from './limits.ts';

/** An excerpt as a summary shows it: plain text (a meta description) and inline HTML (a list, a feed). */
interface Excerpt {
  readonly text: string;
  readonly html: string;
}

/**
 * The longest excerpt read, in characters: a summary is a paragraph at most, and it is made in the
 * build's own process, where emphasis costs time with the square of its runs.
 */
const MAX_EXCERPT_LENGTH = 4_000;

/**
 * Text that Markdown would show as it is: no inline markup (`*`, `_`, `` ` ``, `~`, links, HTML,
 * entities, escapes), no line break; in a body's excerpt, no start of a block either.
 */
const PLAIN_INLINE = /^[^\\`*_~<>&[\]!\r\n]*$/;
const BLOCK_START = /^[ \t]*(?:[#>+|=-]|\d+[.)]|[ ]{4})/;

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
const HTML_OPTIONS = { characterReferences: { useNamedReferences: true } };

/**
 * Front matter's excerpt is a line of text: Markdown's block syntax is not read in it (`1986. A
 * great year` is no list, `# 1` no heading), HTML in it is inline. A body's excerpt (before
 * `<!--more-->`) is read as the body is.
 */
const INLINE_ONLY: Extension = {
  disable: {
    null: [
      'blockQuote',
      'codeFenced',
      'codeIndented',
      'definition',
      'headingAtx',
      'htmlFlow',
      'list',
      'setextUnderline',
      'thematicBreak',
    ],
  },
};

/**
 * A Markdown excerpt (front matter's, or the body before `<!--more-->`) as one paragraph, keeping
 * emphasis, code, strikethrough and `<br>`; links keep their text (a summary sits inside a link).
 * HTML is read by a tokenizer, never built into elements, so no markup can multiply and a
 * `<script>` or `<style>` goes with its content; the result has known elements and no attributes.
 */
function excerptFromMarkdown(markdown: string, from: 'front matter' | 'body' = 'front matter'): Excerpt {
  if (PLAIN_INLINE.test(markdown) && (from === 'front matter' || !BLOCK_START.test(markdown))) {
    const text = collapse(markdown);
    // Written by the same serializer as any other excerpt, so that both escape alike.
    return { text, html: toHtml({ type: 'text', value: text }, HTML_OPTIONS) };
  }
  const tree = fromMarkdown(markdown, {
    extensions: [gfmStrikethrough(), ...(from === 'front matter' ? [INLINE_ONLY] : [])],
    mdastExtensions: [gfmStrikethroughFromMarkdown()],
  });
  const paragraph: Paragraph = { type: 'paragraph', children: summaryPhrasing(joinBlocks(tree.children)) };
  const text = collapse(paragraph.children.map((node) => (node.type === 'break' ? ' ' : toString(node))).join(''));
  const hast = toHast(paragraph) as HastNodes;
  const html =
    'children' in hast ? collapse(toHtml(hast.children as HastContent[], HTML_OPTIONS)).replace(/<br> /g, '<br>') : '';
  return { text, html };
}

/** Blocks' inline content, one after the other, a space between: a paragraph's or heading's own, code as code, HTML as its text, anything else (lists, quotes, tables) its blocks' or its text. */
function joinBlocks(blocks: readonly RootContent[]): PhrasingContent[] {
  const joined: PhrasingContent[] = [];
  for (const block of blocks) {
    const inline = inlineOf(block);
    if (inline.length === 0) continue;
    if (joined.length > 0) joined.push({ type: 'text', value: ' ' });
    joined.push(...inline);
  }
  return joined;
}

function inlineOf(block: RootContent): PhrasingContent[] {
  switch (block.type) {
    case 'paragraph':
    case 'heading':
      return block.children;
    case 'code':
      return block.value.trim() === '' ? [] : [{ type: 'inlineCode', value: block.value }];
    case 'html':
      return htmlText(block.value);
    case 'list':
    case 'listItem':
    case 'blockquote':
      return joinBlocks(block.children as RootContent[]);
    default: {
      const text = toString(block as Nodes).trim();
      return text === '' ? [] : [{ type: 'text', value: text }];
    }
  }
}

/** Elements whose content is no text a reader sees. */
const HIDDEN = new Set([
  'script',
  'style',
  'template',
  'textarea',
  'title',
  'noscript',
  'iframe',
  'object',
  'svg',
  'math',
]);

/** The text of a piece of HTML, `<br>` a break, hidden elements' content left out; read by a tokenizer, in one pass. */
function htmlText(html: string): PhrasingContent[] {
  const found: PhrasingContent[] = [];
  let hidden = 0;
  const parser = new Parser(
    {
      onopentagname(name) {
        if (HIDDEN.has(name)) hidden++;
        else if (name === 'br' && hidden === 0) found.push({ type: 'break' });
      },
      onclosetag(name, implied) {
        if (HIDDEN.has(name) && !implied && hidden > 0) hidden--;
      },
      ontext(text) {
        if (hidden === 0) found.push({ type: 'text', value: text });
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.end(html);
  return found;
}

/**
 * One node of the summary: links and references by their text, images by their description; an
 * HTML tag inline (`<b>`, `</b>`) by nothing, `<br>` a break, and the text between an inline
 * `<script>` (or `<style>`) and its end left out.
 */
function summaryPhrasing(nodes: readonly PhrasingContent[]): PhrasingContent[] {
  const kept: PhrasingContent[] = [];
  let hidden: string | undefined;
  for (const node of nodes) {
    if (node.type === 'html') {
      const tag = /^<(\/?)([a-z][a-z0-9-]*)/i.exec(node.value.trim());
      const name = tag?.[2]?.toLowerCase();
      if (hidden) {
        if (tag?.[1] === '/' && name === hidden) hidden = undefined;
      } else if (name && HIDDEN.has(name) && tag![1] === '' && !/\/>\s*$/.test(node.value)) {
        // Opened and closed in one node (`<script>x</script>` inline is several nodes; a flow block one).
        if (!new RegExp(`</${name}\\s*>`, 'i').test(node.value)) hidden = name;
      } else {
        kept.push(...htmlText(node.value));
      }
      continue;
    }
    if (hidden) continue;
    kept.push(...summaryNode(node));
  }
  return kept;
}

function summaryNode(node: PhrasingContent): PhrasingContent[] {
  switch (node.type) {
    case 'link':
    case 'linkReference':
      return summaryPhrasing(node.children);
    case 'image':
    case 'imageReference':
      return node.alt ? [{ type: 'text', value: node.alt }] : [];
    case 'footnoteReference':
      return [];
    case 'emphasis':
    case 'strong':
    case 'delete':
      return [{ ...node, children: summaryPhrasing(node.children) } as PhrasingContent];
    default:
      return [node];
  }
}

/** The line that ends an excerpt taken from the body, as Jekyll, Hugo and Astro users write it. */
const MORE = /^[ \t]*<!--\s*more\s*-->[ \t]*$/im;

/**
 * The excerpt: `excerpt` in front matter; else `description` (Astro's and Hugo's name for it,
 * read as the excerpt, with a message naming the one this site uses); else the body's text before
 * a `<!--more-->` line; else none.
 */
export function articleExcerpt(
  { file, text, body, bodyLine }: { file: string; text: string; body: string; bodyLine: number },
  data: Record<string, unknown>,
  warn: (message: string) => void,
) {
  const where = (key: string) => keyAt(file, text, key);
  if (typeof data.excerpt === 'string') {
    if (typeof data.description === 'string' && data.description !== data.excerpt)
      warn(`${where('description')}: "description" is not read, as excerpt is given; remove one of them.`);
    return checkedExcerpt(data.excerpt, 'front matter', keyLocation(file, text, 'excerpt'));
  }
  if (typeof data.description === 'string') {
    warn(
      `${where('description')}: "description" is read as the excerpt (the name this site uses); rename it to excerpt.`,
    );
    return checkedExcerpt(data.description, 'front matter', keyLocation(file, text, 'description'));
  }
  const more = MORE.exec(body);
  return checkedExcerpt(more ? body.slice(0, more.index) : '', 'body', { file, line: bodyLine });
}

/**
 * The excerpt made here, in this process (lists show it before any article is converted): one
 * longer than a summary is refused before its Markdown is read, and one nested deeper than the
 * converter follows is refused by name.
 */
function checkedExcerpt(markdown: string, from: 'front matter' | 'body', at: { file: string; line?: number }) {
  if (markdown.length > MAX_EXCERPT_LENGTH)
    throw catalogueError('ExcerptTooLong', [markdown.length, MAX_EXCERPT_LENGTH, from], at);
  try {
    return excerptFromMarkdown(markdown, from);
  } catch (error) {
    if (isStackOverflow(error)) throw catalogueError('ArticleTooDeep', ['stack'], at, { cause: error });
    throw error;
  }
}
