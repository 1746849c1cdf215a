// Raw-text tags in articles, as GitHub's tag filter treats them. The HTML parser reads the content
// of `<style>`, `<textarea>`, `<xmp>`… as plain text up to the element's end tag: opened and never
// closed, one turns the rest of the article into text; an end tag without its `>` swallows what
// follows up to the next `>`. Such tags are written as text (`&lt;style>`) instead, each noted
// with its line for a warning. A start tag that its own end tag closes is left to the sanitiser.
import type { Html, Root, RootContent } from 'mdast';
import type { VFile } from 'vfile';
import { walkTree } from '../base/trees.ts';

/** Its tags (GitHub's tag filter lists them). `plaintext` has no end tag at all. */
const RAW_TEXT_TAGS = new Set([
  'title',
  'textarea',
  'style',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'script',
  'plaintext',
]);

/** What was written as text, with its line in the Markdown given: `<style>`, or an end tag `</style`. */
export interface EscapedTag {
  line: number;
  what: string;
}

/** Where an end tag of a raw-text element may begin, as the parser looks for one: `</style` and a space, `/` or `>`. */
const END_CANDIDATE = /<\/([a-z][a-z0-9]*)(?=[\s/>])/gi;
/** An end tag the filter trusts: `</style>`, spaces allowed before the `>`. */
const WELL_FORMED_END = /^<\/[a-z][a-z0-9]*\s*>/i;

interface EndTag {
  at: number;
  tag: string;
  wellFormed: boolean;
}

/** Every end-tag candidate of a raw-text element in `text`, by tag, in order. */
function endTagsByName(text: string): Map<string, EndTag[]> {
  const ends = new Map<string, EndTag[]>();
  for (const match of text.matchAll(END_CANDIDATE)) {
    const tag = match[1]!.toLowerCase();
    if (!RAW_TEXT_TAGS.has(tag)) continue;
    const list = ends.get(tag) ?? [];
    list.push({
      at: match.index,
      tag,
      wellFormed: WELL_FORMED_END.test(text.slice(match.index, match.index + tag.length + 64)),
    });
    ends.set(tag, list);
  }
  return ends;
}

/** The first of `ends` (in order) after `at`, by binary search. */
function firstAfter(ends: readonly EndTag[] | undefined, at: number): EndTag | undefined {
  if (!ends) return undefined;
  let [low, high] = [0, ends.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ends[middle]!.at > at) high = middle;
    else low = middle + 1;
  }
  return ends[low];
}

/** Where a comment that starts at `at` ends: `<!-->` and `<!--->` are whole comments; else at `-->` or `--!>`, or the text's end. */
function commentEnd(text: string, at: number): number {
  if (text.startsWith('>', at + 4)) return at + 5;
  if (text.startsWith('->', at + 4)) return at + 6;
  const ends = [text.indexOf('-->', at + 4), text.indexOf('--!>', at + 4)].filter((index) => index >= 0);
  return ends.length > 0 ? Math.min(...ends) + (text.startsWith('-->', Math.min(...ends)) ? 3 : 4) : text.length;
}

/** Where a tag that starts at `at` ends (after its `>`), its quoted attribute values skipped: a `<` inside one is no tag. */
function tagEnd(text: string, at: number): number {
  for (let index = at + 1; index < text.length; index++) {
    const char = text[index];
    if (char === '>') return index + 1;
    if (char === '"' || char === "'") {
      const close = text.indexOf(char, index + 1);
      if (close < 0) return text.length;
      index = close;
    }
  }
  return text.length;
}

/**
 * The offsets in `text` (the article's raw HTML, in order) of the raw-text start tags that no
 * well-formed end tag closes, and of the raw-text end tags without their `>`: the places to write
 * as text. One pass: a start tag is looked up against the end tags found beforehand.
 */
function tagsToEscape(text: string): Array<{ at: number; what: string }> {
  const ends = endTagsByName(text);
  const found: Array<{ at: number; what: string }> = [];
  for (const list of ends.values())
    for (const end of list) if (!end.wellFormed) found.push({ at: end.at, what: `</${end.tag}` });
  let index = 0;
  while (index < text.length) {
    const at = text.indexOf('<', index);
    if (at < 0) break;
    if (text.startsWith('<!--', at)) {
      index = commentEnd(text, at);
      continue;
    }
    const name = /^<([a-z][a-z0-9]*)/i.exec(text.slice(at, at + 32))?.[1]?.toLowerCase();
    if (!name) {
      index = at + 1;
      continue;
    }
    const after = tagEnd(text, at);
    if (!RAW_TEXT_TAGS.has(name)) {
      index = after;
      continue;
    }
    // The parser ends the element at the first end-tag candidate: closed only if that one is whole.
    const end = name === 'plaintext' ? undefined : firstAfter(ends.get(name), at);
    if (end?.wellFormed) {
      index = end.at + 2;
      continue;
    }
    found.push({ at, what: `<${name}>` });
    // Written as text, what it held is read as HTML again.
    index = at + 1;
  }
  return found.sort((a, b) => a.at - b.at);
}

/** The line of `index` in `value`, which starts on `firstLine` (any line ending counts). */
const lineAt = (value: string, index: number, firstLine: number) =>
  firstLine + (value.slice(0, index).match(/\r\n|\r|\n/g)?.length ?? 0);

/** The remark plugin: writes the tags `tagsToEscape` finds as text, and notes them in `file.data.escapedHtml`. */
export function remarkEscapeRawTextTags() {
  return (tree: Root, file: VFile) => {
    const html: Html[] = [];
    walkTree<RootContent>(tree, (node) => void (node.type === 'html' && html.push(node)));
    if (html.length === 0) return;
    // The nodes' HTML as one text, as the parser reads them one after the other.
    const starts: number[] = [];
    let text = '';
    for (const node of html) {
      starts.push(text.length);
      text += `${node.value}\n`;
    }
    const escaped: EscapedTag[] = [];
    let nodeIndex = html.length - 1;
    for (const { at, what } of tagsToEscape(text).reverse()) {
      while (starts[nodeIndex]! > at) nodeIndex--;
      const node = html[nodeIndex]!;
      const index = at - starts[nodeIndex]!;
      escaped.push({ line: lineAt(node.value, index, node.position?.start.line ?? 1), what });
      node.value = `${node.value.slice(0, index)}&lt;${node.value.slice(index + 1)}`;
    }
    if (escaped.length > 0) file.data.escapedHtml = escaped.reverse();
  };
}
