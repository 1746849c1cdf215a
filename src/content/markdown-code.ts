// Code blocks as documentation sites show them: a fence's `title="file.ts"` becomes a caption,
// `{3-5}` or `mark=3-5` marks lines, and every block carries a copy button that fetches its script
// only when the visitor reaches for it (an island that waits for interaction).
import type { Element, ElementContent, Root, RootContent, Text } from 'hast';
import type { Root as MdastRoot, RootContent as MdastContent } from 'mdast';
import { SKIP, walkTree } from '../base/trees.ts';
import type { VFile } from 'vfile';
import { COPY_CODE_ISLAND } from '../runtime/built-in-islands.ts';
import { isEnglish, wordsOf, type ArticleWords } from './article-words.ts';

/** What a fence's meta (the text after its language) says: a caption, and lines to mark. */
export interface CodeMeta {
  title?: string;
  /** Line ranges, counted from 1, both ends included. */
  marks: Array<readonly [number, number]>;
}

const TITLE = /(?:^|\s)title=(?:"([^"]*)"|'([^']*)'|([^\s"'{}]+))/;
/** `{2,4-6}`, each group (`{2-3} {5}`). */
const MARK_BRACES = /(?:^|\s)\{([\d,\s-]+)\}/g;
/** `mark=2-3`, `mark={2}`, `highlight="1 3"`, Hugo's `hl_lines=[8,"15-17"]` (also inside `{…}`). */
const MARK_WORD =
  /(?:^|[\s{,])(?:mark|highlight|hl_lines)=(?:\{([\d,\s-]+)\}|\[([\d,\s"'-]+)\]|"([\d,\s-]+)"|'([\d,\s-]+)'|([\d,-]+))/g;

/** An info string's first word that is meta, not a language. */
const META_FIRST = /^(?:\{|(?:title|mark|highlight|hl_lines)=)/;

/** `3-5,7` → [[3, 5], [7, 7]]; parts that are no range of positive lines are left out. */
export function lineRanges(text: string): Array<readonly [number, number]> {
  const ranges: Array<readonly [number, number]> = [];
  for (const part of text.split(/[,\s]+/)) {
    const match = /^(\d{1,9})(?:-(\d{1,9}))?$/.exec(part);
    if (!match) continue;
    const from = Math.max(1, Number(match[1]));
    const to = match[2] === undefined ? Number(match[1]) : Number(match[2]);
    if (to >= from) ranges.push([from, to]);
  }
  return ranges;
}

/** The caption and marked lines a fence's meta asks for: `title="a.ts" {2,4-6}`, `mark=3-5`. */
export function parseCodeMeta(meta: string | null | undefined): CodeMeta {
  if (!meta) return { marks: [] };
  const title = TITLE.exec(meta);
  const withoutTitle = title ? meta.replace(title[0], ' ') : meta;
  const written = [
    ...[...withoutTitle.matchAll(MARK_WORD)].map((match) =>
      (match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5]!).replace(/["']/g, ''),
    ),
    // A group in braces that is not Hugo's options (`{linenos=table,hl_lines=[2]}` holds an =).
    ...[...withoutTitle.matchAll(MARK_BRACES)].map((match) => match[1]!),
  ];
  const marks = lineRanges(written.join(','));
  const caption = title ? (title[1] ?? title[2] ?? title[3]!).trim() : '';
  return caption === '' ? { marks } : { title: caption, marks };
}

/**
 * Before the Markdown tree becomes HTML: each fence's caption and marks go on its `<code>` as
 * `data-code-title` and `data-code-mark` (the sanitiser keeps them on `code`), for
 * `rehypeCodeBlocks` to read after highlighting.
 */
export function remarkCodeMeta() {
  return (tree: MdastRoot) => {
    walkTree<MdastContent>(tree, (node) => {
      if (node.type !== 'code') return;
      // A fence with no language whose info starts with its meta (```{2} or ```title="a.txt"):
      // CommonMark reads the first word as the language.
      if (node.lang && META_FIRST.test(node.lang)) {
        node.meta = node.meta ? `${node.lang} ${node.meta}` : node.lang;
        node.lang = null;
      }
      if (!node.meta) return;
      const { title, marks } = parseCodeMeta(node.meta);
      if (title === undefined && marks.length === 0) return;
      const data = (node.data ??= {});
      data.hProperties = {
        ...data.hProperties,
        ...(title !== undefined ? { dataCodeTitle: title } : {}),
        ...(marks.length > 0
          ? { dataCodeMark: marks.map(([from, to]) => (from === to ? `${from}` : `${from}-${to}`)).join(',') }
          : {}),
      };
    });
  };
}

const element = (tagName: string, properties: Element['properties'], children: ElementContent[]): Element => ({
  type: 'element',
  tagName,
  properties,
  children,
});
const text = (value: string): Text => ({ type: 'text', value });

/**
 * The children of a `<code>` as lines: text split at each line feed (kept at the end of its
 * line), elements (the highlighter's spans) cut in pieces, each piece in a copy of its element.
 * Highlighted code nests a few spans deep, so the recursion stays shallow.
 */
function splitLines(children: readonly ElementContent[]): ElementContent[][] {
  const lines: ElementContent[][] = [[]];
  const current = () => lines[lines.length - 1]!;
  for (const child of children) {
    if (child.type === 'text') {
      const parts = child.value.split('\n');
      parts.forEach((part, index) => {
        const last = index === parts.length - 1;
        const value = last ? part : `${part}\n`;
        if (value !== '') current().push(text(value));
        if (!last) lines.push([]);
      });
    } else if (child.type === 'element') {
      const inner = splitLines(child.children);
      inner.forEach((piece, index) => {
        if (piece.length > 0) current().push({ ...child, children: piece });
        if (index < inner.length - 1) lines.push([]);
      });
    } else {
      current().push(child);
    }
  }
  // A last line that is empty (the code ended in a line feed) is no line.
  if (lines.length > 1 && current().length === 0) lines.pop();
  return lines;
}

/** The ranges sorted and merged, so lines are matched in one sweep however many ranges are written. */
function mergedRanges(marks: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const merged: Array<[number, number]> = [];
  for (const [from, to] of [...marks].sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/**
 * The copy button and its announcement, inside an island that hydrates on the first interaction;
 * in the article's words, which the island is handed for what it says next (none in English).
 */
function copyButton(words: ArticleWords): Element {
  const { copy, copied, codeCopied, pressKey, copyFailed } = words;
  const props = isEnglish(words) ? {} : { copy, copied, codeCopied, pressKey, copyFailed };
  const island = { dataIsland: COPY_CODE_ISLAND, dataHydrate: 'interaction', dataProps: JSON.stringify(props) };
  return element('ssg-island', island, [
    element('button', { type: 'button', className: ['code-copy'], ariaLabel: words.copyCode }, [text(copy)]),
    element('span', { className: ['code-copy-status'], role: 'status' }, []),
  ]);
}

/**
 * After highlighting: each `<pre><code>` becomes a block with its copy button; a fence with a
 * title becomes a `<figure>` with the title as its `<figcaption>`; its marked lines are wrapped in
 * `<mark class="code-mark">`.
 */
export function rehypeCodeBlocks() {
  return (tree: Root, file: VFile) => {
    const words = wordsOf(file);
    walkTree<RootContent>(tree, (node, parent, index) => {
      if (node.type === 'element' && node.tagName === 'code') {
        // Written on code outside a block (raw HTML): nothing to show it, so it goes.
        delete node.properties.dataCodeTitle;
        delete node.properties.dataCodeMark;
      }
      if (node.type !== 'element' || node.tagName !== 'pre') return undefined;
      const code = node.children.find(
        (child): child is Element => child.type === 'element' && child.tagName === 'code',
      );
      if (!code) return SKIP;
      const title = typeof code.properties.dataCodeTitle === 'string' ? code.properties.dataCodeTitle : undefined;
      const marks = typeof code.properties.dataCodeMark === 'string' ? lineRanges(code.properties.dataCodeMark) : [];
      delete code.properties.dataCodeTitle;
      delete code.properties.dataCodeMark;
      if (marks.length > 0) {
        const ranges = mergedRanges(marks);
        let next = 0;
        code.children = splitLines(code.children).flatMap((line, at) => {
          while (next < ranges.length && ranges[next]![1] < at + 1) next++;
          const range = ranges[next];
          return range && range[0] <= at + 1 ? [element('mark', { className: ['code-mark'] }, line)] : line;
        });
      }
      const children: ElementContent[] = [node, copyButton(words)];
      const block =
        title === undefined
          ? element('div', { className: ['code-block'] }, children)
          : element('figure', { className: ['code-block'] }, [
              element('figcaption', { className: ['code-title'] }, [text(title)]),
              ...children,
            ]);
      (parent.children as RootContent[])[index] = block;
      return SKIP;
    });
  };
}
