// Every example of the CommonMark spec and of GFM's extensions, through the real Markdown pipeline:
// each renders as the spec says once the generator's documented additions are taken out, or is
// refused by a named, documented rule. A regression in any section fails that section.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize from 'rehype-sanitize';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { articleSchema, type RemovedHtml } from '../src/content/markdown-html.ts';
import { convertArticle, convertMarkdown, type ConvertedMarkdown } from '../src/content/markdown.ts';
import { SsgError, SsgErrorList } from '../src/errors/errors.ts';
import type { ErrorCode } from '../src/errors/errors-data.ts';
import type { ArticleImageContext } from '../src/images/article-images.ts';

interface SpecExample {
  number: number;
  section: string;
  markdown: string;
  html: string;
}

const require = createRequire(import.meta.url);
const commonmarkPackage = require('commonmark-spec') as { tests: SpecExample[] };
const commonmarkVersion = (require('commonmark-spec/package.json') as { version: string }).version;

/** The specs write a tab as `→`; their runners (`test/spec_tests.py`) read it as one. The package leaves it. */
const withTabs = (example: SpecExample): SpecExample => ({
  ...example,
  markdown: example.markdown.replaceAll('→', '\t'),
  html: example.html.replaceAll('→', '\t'),
});

const commonmarkExamples = commonmarkPackage.tests.map(withTabs);
/** GFM's extension examples, tabs already written as tabs: see fixtures/markdown-spec/README.md. */
const gfmFixture = path.join(import.meta.dirname, 'fixtures', 'markdown-spec', 'gfm-extensions.json');
const gfmExamples = JSON.parse(readFileSync(gfmFixture, 'utf8')) as Array<SpecExample & { extension: string }>;

// ---------------------------------------------------------------------------------------------
// Both sides are parsed by the pipeline's own HTML parser (parse5, through rehype-raw), so markup
// that differs only in how it is written (`<br />`, `&lt;`, quotes) compares equal.

/** An HTML fragment as the tree the pipeline's parser makes of it. */
function parseFragment(html: string): Root {
  const tree: Root = { type: 'root', children: [{ type: 'raw', value: html } as unknown as RootContent] };
  return unified().use(rehypeRaw).runSync(tree) as Root;
}

type HastNode = Root | RootContent | ElementContent;

const isElement = (node: HastNode | undefined, tagName?: string): node is Element =>
  node?.type === 'element' && (tagName === undefined || node.tagName === tagName);

const classesOf = (node: Element): string[] =>
  Array.isArray(node.properties.className) ? node.properties.className.map(String) : [];

const isHeading = (node: Element) => /^h[1-6]$/.test(node.tagName);

/** Calls `visit` on every element, parents before their children. */
function eachElement(tree: Root | Element, visit: (node: Element) => void): void {
  for (const child of tree.children) {
    if (child.type !== 'element') continue;
    visit(child);
    eachElement(child, visit);
  }
}

/** Replaces each child by what `replace` makes of it (none, itself, or others), depth first. */
function replaceChildren(parent: Root | Element, replace: (node: RootContent) => RootContent[]): void {
  const children: RootContent[] = [];
  for (const child of parent.children) {
    if (child.type === 'element') replaceChildren(child, replace);
    children.push(...replace(child));
  }
  parent.children = children as typeof parent.children;
}

// ---------------------------------------------------------------------------------------------
// The spec's own comparison (`test/normalize.py` in CommonMark and cmark-gfm), on both sides.

/**
 * cmark ends its output with a line feed and rehype-stringify does not; after raw HTML that
 * leaves an element open (`<a href="x">`), the parser would put that line feed inside it.
 */
const withoutFinalLineFeed = (html: string) => html.replace(/\n$/, '');

/** The block-level tags of the spec's normaliser: white space beside them is not significant. */
const BLOCK_TAGS = new Set([
  ...['article', 'header', 'aside', 'hgroup', 'blockquote', 'hr', 'iframe', 'body', 'li', 'map', 'button', 'object'],
  ...['canvas', 'ol', 'caption', 'output', 'col', 'p', 'colgroup', 'pre', 'dd', 'progress', 'div', 'section', 'dl'],
  ...['table', 'td', 'dt', 'tbody', 'embed', 'textarea', 'fieldset', 'tfoot', 'figcaption', 'th', 'figure', 'thead'],
  ...['footer', 'tr', 'form', 'ul', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'video', 'script', 'style'],
]);
/** HTML's white space only: a no-break space is text. */
const HTML_SPACE = /[ \t\n\r\f]+/g;
const isBlock = (node: HastNode | undefined) =>
  node === undefined || node.type === 'root' || (isElement(node) && BLOCK_TAGS.has(node.tagName));

/**
 * As the spec's normaliser does: outside `<pre>`, a run of white space is one space, white space
 * beside a block-level tag is dropped, and so is a line feed after `<br>`. Adjacent texts (left
 * by a removed element) are one text first, as a browser reads them.
 */
function collapseWhitespace(parent: Root | Element, inPre = false): void {
  const pre = inPre || isElement(parent, 'pre');
  const merged: HastNode[] = [];
  for (const child of parent.children) {
    const last = merged.at(-1);
    if (child.type === 'text' && last?.type === 'text')
      merged[merged.length - 1] = { ...last, value: last.value + child.value };
    else merged.push(child);
  }
  const kept = merged.flatMap((child, index) => {
    if (child.type === 'element') collapseWhitespace(child, pre);
    if (child.type !== 'text' || pre) return [child];
    const before = merged[index - 1];
    const after = merged[index + 1];
    let value = isElement(before, 'br') ? child.value.replace(/^\n+/, '') : child.value;
    value = value.replace(HTML_SPACE, ' ');
    if (isBlock(before ?? parent)) value = value.replace(/^ /, '');
    if (isBlock(after ?? parent)) value = value.replace(/ $/, '');
    return value === '' ? [] : [{ ...child, value }];
  });
  parent.children = kept as typeof parent.children;
}

/** As the spec's normaliser does: attributes in name order. */
function sortAttributes(tree: Root): void {
  eachElement(tree, (node) => {
    const sorted = Object.entries(node.properties).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    node.properties = Object.fromEntries(sorted);
  });
}

// ---------------------------------------------------------------------------------------------
// The generator's documented additions (README, "News articles" and "HTML in articles"), each
// taken out of its rendering by one rule, only where it has the exact shape the code gives it.

/** README: "Every heading gets … a visible `#` link to itself" (rehype-autolink-headings, appended). */
function removeHeadingAnchors(tree: Root): void {
  eachElement(tree, (node) => {
    const last = node.children.at(-1);
    const isAnchor =
      isElement(last, 'a') &&
      classesOf(last).join(' ') === 'heading-anchor' &&
      last.properties.href === `#${String(node.properties.id)}`;
    if (isHeading(node) && isAnchor) node.children.pop();
  });
}

const CLOBBER_PREFIX = articleSchema.clobberPrefix ?? 'user-content-';

/**
 * README: "Every heading gets an id as GitHub makes them" (rehypeHeadingIds). Those the conversion
 * reports making, not an id written in raw HTML, which carries the sanitiser's prefix.
 */
function removeGeneratedHeadingIds(tree: Root, generated: ReadonlySet<string>): void {
  eachElement(tree, (node) => {
    const id = node.properties.id;
    const made = typeof id === 'string' && generated.has(id) && !id.startsWith(CLOBBER_PREFIX);
    if (isHeading(node) && made) delete node.properties.id;
  });
}

/** README: "An `id` written in HTML gets the prefix `user-content-`" (the sanitiser's clobber list: `name` too). */
function removeClobberPrefix(tree: Root): void {
  eachElement(tree, (node) => {
    for (const key of articleSchema.clobber ?? []) {
      const value = node.properties[key];
      if (typeof value === 'string' && value.startsWith(CLOBBER_PREFIX))
        node.properties[key] = value.slice(CLOBBER_PREFIX.length);
    }
  });
}

/** README: "Every block gets a 'Copy' button … The blocks are `div.code-block`" (rehypeCodeBlocks). */
function unwrapCodeBlocks(tree: Root): void {
  replaceChildren(tree, (node) => {
    if (!isElement(node, 'div') || classesOf(node).join(' ') !== 'code-block' || node.children.length !== 2)
      return [node];
    const [pre, island] = node.children;
    const copyButton = isElement(island, 'ssg-island') && island.properties.dataIsland === 'ssg-copy-code';
    return isElement(pre, 'pre') && copyButton ? [pre] : [node];
  });
}

/**
 * README: "A fence that names its language … is highlighted at build time into classes"
 * (rehype-highlight): the `hljs` class of the code and its spans, inside `<pre><code>` only. A
 * span's classes are highlight.js scopes: `hljs-keyword`, and sub-scopes ending in `_` (`function_`).
 */
function removeHighlighting(tree: Root): void {
  const isScope = (name: string) => name.startsWith('hljs-') || name.endsWith('_');
  eachElement(tree, (pre) => {
    const code = pre.tagName === 'pre' ? pre.children.find((child) => isElement(child, 'code')) : undefined;
    if (!isElement(code) || !classesOf(code).includes('hljs')) return;
    const language = classesOf(code).filter((name) => name !== 'hljs');
    if (language.length > 0) code.properties.className = language;
    else delete code.properties.className;
    const isHighlight = (node: RootContent) =>
      isElement(node, 'span') && classesOf(node).length > 0 && classesOf(node).every(isScope);
    replaceChildren(code, (node) => (isHighlight(node) ? ((node as Element).children as RootContent[]) : [node]));
  });
}

/**
 * README: "All of GitHub's Markdown (GFM, through `remark-gfm`): … task lists", marked up as
 * GitHub marks them: `contains-task-list` on the list, `task-list-item` on an item with a box.
 */
function removeTaskListClasses(tree: Root): void {
  const drop = (node: Element, name: string) => {
    const rest = classesOf(node).filter((className) => className !== name);
    if (rest.length > 0) node.properties.className = rest;
    else delete node.properties.className;
  };
  eachElement(tree, (node) => {
    if (node.tagName === 'ul' || node.tagName === 'ol') drop(node, 'contains-task-list');
    const box = node.children.find((child) => isElement(child));
    if (node.tagName === 'li' && isElement(box, 'input') && box.properties.type === 'checkbox')
      drop(node, 'task-list-item');
  });
}

/** The link GFM makes of a bare URL, `www.` address or e-mail address: its text and its address. */
function isAutolinkLiteral(text: string, href: string): boolean {
  if (/^https?:\/\//i.test(text)) return href === text;
  if (/^www\./i.test(text)) return href === `http://${text}`;
  return text.includes('@') && href === `mailto:${text}`;
}

/**
 * README: GFM's "bare URLs, `www.` addresses and e-mail addresses made links". For CommonMark's
 * examples, which are without the extension, such a link is its text again, unless the Markdown
 * writes it as an autolink (`<…>`), which CommonMark links too.
 */
function unlinkAutolinkLiterals(tree: Root, markdown: string): boolean {
  let changed = false;
  replaceChildren(tree, (node) => {
    if (!isElement(node, 'a') || Object.keys(node.properties).join() !== 'href' || node.children.length !== 1)
      return [node];
    const [text] = node.children;
    const href = String(node.properties.href);
    if (text?.type !== 'text' || !isAutolinkLiteral(text.value, href)) return [node];
    if (markdown.includes(`<${text.value}>`) || markdown.includes(`<${href}>`)) return [node];
    changed = true;
    return [text];
  });
  return changed;
}

// ---------------------------------------------------------------------------------------------
// Documented rules that change what the spec's HTML becomes: applied to the spec's side, each
// only where the example calls for it; the examples each applies to are listed in a test below.

/**
 * README, "HTML in articles": raw HTML is sanitised with GitHub's schema (`articleSchema`), each
 * removal a warning. Where the conversion warns of one, the spec's HTML is held to the same schema.
 */
function sanitiseAsArticles(tree: Root): Root {
  return unified().use(rehypeSanitize, articleSchema).runSync(tree) as Root;
}

/** README, "HTML in articles": "HTML comments, silently" removed. */
function removeComments(tree: Root): boolean {
  let changed = false;
  replaceChildren(tree, (node) => (node.type === 'comment' ? ((changed = true), []) : [node]));
  return changed;
}

/**
 * README, "HTML in articles": a raw-text start tag never closed is written as text, `&lt;style`, as
 * GitHub's tag filter does (`remarkEscapeUnclosedRawText`). In the spec's HTML, the first such
 * start tag, once for each the conversion reports escaping.
 */
function escapeUnclosedRawText(html: string, escaped: readonly RemovedHtml[]): string {
  let result = html;
  for (const { what } of escaped) {
    const tag = what.slice(1, -1);
    const closed = new RegExp(`</${tag}(?=[\\s/>]|$)`, 'i');
    const starts = [...result.matchAll(new RegExp(`<${tag}(?=[\\s/>]|$)`, 'gi'))];
    const open = starts.find((start) => !closed.test(result.slice(start.index)));
    if (open) result = `${result.slice(0, open.index)}&lt;${result.slice(open.index + 1)}`;
  }
  return result;
}

/** A link target to another article's file, as README words it (`other-post.md#part`, from any folder). */
const MARKDOWN_FILE_LINK = /^(?![a-z][a-z0-9+.-]*:|\/|#)(?:[^?#]*\/)?([^/?#]+)\.md((?:[?#].*)?)$/i;

/** README: "A link to another article's file … becomes a link to its page", served beside it under its slug. */
function linkArticleFiles(tree: Root): boolean {
  let changed = false;
  eachElement(tree, (node) => {
    const href = node.properties.href;
    const match = node.tagName === 'a' && typeof href === 'string' ? MARKDOWN_FILE_LINK.exec(href) : null;
    if (!match) return;
    node.properties.href = `${match[1]!}${match[2]!}`;
    changed = true;
  });
  return changed;
}

/**
 * README, "HTML in articles": a URL whose scheme is allowed in another letter case (`MAILTO:`) is
 * written with it in lower case (`rehypeLowercaseSchemes`), as the sanitiser's list has it.
 */
function lowercaseSchemes(tree: Root): boolean {
  let changed = false;
  eachElement(tree, (node) => {
    for (const [key, protocols] of Object.entries(articleSchema.protocols ?? {})) {
      const value = node.properties[key];
      const scheme = typeof value === 'string' ? /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1] : undefined;
      if (!scheme || scheme === scheme.toLowerCase() || !protocols?.includes(scheme.toLowerCase())) continue;
      node.properties[key] = scheme.toLowerCase() + (value as string).slice(scheme.length);
      changed = true;
    }
  });
  return changed;
}

/**
 * README, "News articles": GFM's literal autolinks are those of remark-gfm, as GitHub.com makes
 * them: `http(s)://`, `www.` and e-mail addresses. A bare `ftp://` address stays text (GitHub's
 * schema allows no `ftp:` link either); the spec's older cmark-gfm linked it.
 */
function unlinkFtpAddresses(tree: Root): boolean {
  let changed = false;
  replaceChildren(tree, (node) => {
    const [text] = isElement(node, 'a') ? node.children : [];
    const bare =
      isElement(node, 'a') &&
      text?.type === 'text' &&
      /^ftp:\/\//i.test(text.value) &&
      node.properties.href === text.value;
    if (!bare) return [node];
    changed = true;
    return [text];
  });
  return changed;
}

// ---------------------------------------------------------------------------------------------

/** The rules above that change meaning, not markup: which examples each applies to is checked. */
type ExampleRule =
  | 'sanitised'
  | 'comments removed'
  | 'tag filter'
  | 'article links'
  | 'autolink literals'
  | 'schemes lowercased'
  | 'ftp not linked';

interface Comparison {
  number: number;
  markdown: string;
  expected: string;
  actual: string;
  rules: ExampleRule[];
  /** Whether the rendering shows an image, which the build checks. */
  showsImage: boolean;
}

type Spec = 'commonmark' | 'gfm';

/** The spec's HTML and the pipeline's, each normalised, for one example. */
function compare(
  example: SpecExample,
  spec: Spec,
  converted: ConvertedMarkdown = convertMarkdown(example.markdown),
): Comparison {
  const rules: ExampleRule[] = [];
  const escaped = converted.removedHtml.filter((removed) => removed.escaped);
  if (escaped.length > 0) rules.push('tag filter');
  let expected = parseFragment(escapeUnclosedRawText(withoutFinalLineFeed(example.html), escaped));
  if (converted.removedHtml.some((removed) => !removed.escaped)) {
    expected = sanitiseAsArticles(expected);
    rules.push('sanitised');
  }
  if (removeComments(expected)) rules.push('comments removed');
  if (linkArticleFiles(expected)) rules.push('article links');
  if (lowercaseSchemes(expected)) rules.push('schemes lowercased');
  if (spec === 'gfm' && unlinkFtpAddresses(expected)) rules.push('ftp not linked');

  const actual = parseFragment(withoutFinalLineFeed(converted.html));
  let showsImage = false;
  eachElement(actual, (node) => void (showsImage ||= node.tagName === 'img'));
  removeHeadingAnchors(actual);
  removeGeneratedHeadingIds(actual, new Set(converted.headings.map((heading) => heading.id)));
  unwrapCodeBlocks(actual);
  removeHighlighting(actual);
  removeTaskListClasses(actual);
  if (spec === 'commonmark' && unlinkAutolinkLiterals(actual, example.markdown)) rules.push('autolink literals');

  for (const tree of [expected, actual]) {
    removeClobberPrefix(tree);
    collapseWhitespace(tree);
    sortAttributes(tree);
  }
  return {
    number: example.number,
    markdown: example.markdown,
    expected: toHtml(expected),
    actual: toHtml(actual),
    rules,
    showsImage,
  };
}

const compared = new Map<string, Comparison>();

/** Each example converted and compared once, for all the tests reading it. */
function comparisonOf(example: SpecExample, spec: Spec): Comparison {
  const key = `${spec} ${example.number}`;
  let comparison = compared.get(key);
  if (!comparison) compared.set(key, (comparison = compare(example, spec)));
  return comparison;
}

/** The examples that do not render as the spec says, with both renderings normalised. */
const mismatches = (examples: readonly SpecExample[], spec: Spec) =>
  examples
    .map((example) => comparisonOf(example, spec))
    .filter(({ expected, actual }) => expected !== actual)
    .map(({ number, markdown, expected, actual }) => ({ number, markdown, expected, actual }));

/** Which examples each meaning-changing rule applied to. */
function rulesApplied(examples: readonly SpecExample[], spec: Spec): Partial<Record<ExampleRule, number[]>> {
  const applied: Partial<Record<ExampleRule, number[]>> = {};
  for (const example of examples)
    for (const rule of comparisonOf(example, spec).rules) (applied[rule] ??= []).push(example.number);
  return applied;
}

/** Where an example is built as an article: a project holding no image file, so nothing is processed. */
const noFiles = path.join(tmpdir(), 'ssg-markdown-spec-no-files');
const articleContext: ArticleImageContext = {
  root: noFiles,
  contentDir: path.join(noFiles, 'content'),
  publicDir: path.join(noFiles, 'site', 'public'),
  file: 'content/news/example.md',
  bodyLine: 1,
  cache: {
    recording: () => {
      throw new Error('no image is processed: none exists');
    },
  },
  assetsDir: 'assets',
  sizes: '100vw',
};

/**
 * What stops the build of each example that shows an image (what the article conversion adds to
 * `convertMarkdown`), by the rules' names. `ImageMissing` is left out: no image file exists here.
 */
async function refusals(examples: readonly SpecExample[], spec: Spec): Promise<Record<number, ErrorCode[]>> {
  const refused: Record<number, ErrorCode[]> = {};
  for (const example of examples.filter((candidate) => comparisonOf(candidate, spec).showsImage)) {
    const codes = await convertArticle(example.markdown, articleContext).then(
      () => [],
      (error: unknown) => {
        if (error instanceof SsgErrorList) return error.errors.map((problem) => problem.code);
        if (error instanceof SsgError) return [error.code];
        throw error;
      },
    );
    const named = [...new Set(codes)].filter((code) => code !== 'ImageMissing');
    if (named.length > 0) refused[example.number] = named;
  }
  return refused;
}

const bySection = <T extends SpecExample>(examples: readonly T[]): Array<[string, T[]]> => {
  const sections = new Map<string, T[]>();
  for (const example of examples) sections.set(example.section, [...(sections.get(example.section) ?? []), example]);
  return [...sections];
};

describe(`CommonMark ${commonmarkVersion}`, () => {
  it('has every example of the spec', () => {
    expect(commonmarkVersion).toBe('0.31.2');
    expect(commonmarkExamples).toHaveLength(652);
  });

  it.each(bySection(commonmarkExamples))('%s', (_section, examples) => {
    expect(mismatches(examples, 'commonmark')).toEqual([]);
  });

  // Built as articles, these are refused; converted alone, they render as the spec says (above).
  it('is refused by a named rule only where listed: an image without alt text (README, "Images in articles")', async () => {
    expect(await refusals(commonmarkExamples, 'commonmark')).toEqual({
      475: ['ImageAltMissing'],
      581: ['ImageAltMissing'],
    });
  });

  it('is held to the documented rules that change the HTML only where they apply', () => {
    expect(rulesApplied(commonmarkExamples, 'commonmark')).toEqual({
      // Each reported as a warning; the same schema applied to the spec's HTML.
      sanitised: [
        150, 152, 153, 154, 163, 164, 169, 170, 171, 172, 176, 178, 201, 491, 500, 524, 536, 598, 599, 601, 613, 614,
        615, 616, 617,
      ],
      'tag filter': [173],
      'comments removed': [177, 179, 180, 182, 183, 308, 309, 625, 626, 627, 628, 629],
      'article links': [484],
      'autolink literals': [602, 606, 608, 611, 612],
      'schemes lowercased': [597],
    });
  });
});

describe("GitHub Flavored Markdown's extensions", () => {
  it('has every extension example of the spec', () => {
    const extensions = gfmExamples.map((example) => example.extension);
    const counts = Object.fromEntries(
      [...new Set(extensions)].map((name) => [name, extensions.filter((other) => other === name).length]),
    );
    expect(counts).toEqual({ table: 8, tasklist: 2, strikethrough: 2, autolink: 11, tagfilter: 1 });
  });

  it.each(bySection(gfmExamples))('%s', (_section, examples) => {
    expect(mismatches(examples, 'gfm')).toEqual([]);
  });

  it('is refused by no rule', async () => {
    expect(await refusals(gfmExamples, 'gfm')).toEqual({});
  });

  it('is held to the documented rules that change the HTML only where they apply', () => {
    expect(rulesApplied(gfmExamples, 'gfm')).toEqual({ 'tag filter': [653], 'ftp not linked': [628] });
  });
});

describe('the comparison itself', () => {
  const example = (number: number) => commonmarkExamples.find((candidate) => candidate.number === number)!;

  /** The example compared with its real rendering changed by `change`, as a regression would change it. */
  function comparedWrong(number: number, change: (html: string) => string): Comparison {
    const converted = convertMarkdown(example(number).markdown);
    const real = compare(example(number), 'commonmark', converted);
    expect(real.actual, 'the real rendering matches').toBe(real.expected);
    const html = change(converted.html);
    expect(html, 'the change applies').not.toBe(converted.html);
    return compare(example(number), 'commonmark', { ...converted, html });
  }

  it.each([
    ['a heading of another level', 62, (html: string) => html.replace('<h2', '<h3').replace('</h2>', '</h3>')],
    ['a letter changed in highlighted code', 142, (html: string) => html.replace('return', 'retrun')],
    ['a space added in a code block', 107, (html: string) => html.replace('<code>', '<code> ')],
    [
      'a link the heading anchor rule must not take',
      62,
      (html: string) => html.replace('</h1>', '<a href="#foo">#</a></h1>'),
    ],
    ['a character changed in a code block', 119, (html: string) => html.replace('&#x3C;', '&#x3E;')],
    ['a script the sanitiser should have removed', 170, (html: string) => `<script>alert(1)</script>${html}`],
    ['a removed comment still there', 625, (html: string) => html.replace('foo', 'foo <!-- this -->')],
    ['an autolink that is not one', 594, () => '<p>&lt;<a href="http://foo.bar.baz">http://foo.bar.baz</a>&gt;</p>'],
    ['emphasis lost', 350, (html: string) => html.replace(/<\/?em>/g, '*')],
  ])('tells %s (example %i) from the spec', (_what, number, change) => {
    const { expected, actual } = comparedWrong(number, change);
    expect(actual).not.toBe(expected);
  });
});
