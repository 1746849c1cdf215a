// HTML in articles, as GitHub treats it: raw HTML is parsed (rehype-raw) and sanitised with
// GitHub's schema plus a few elements the site shows (rehype-sanitize), never dropped whole.
// What the sanitiser removes is noted first, with its line, so the build can warn about it; after
// sanitising, the ids it prefixed are linked up again and footnote ids are made the article's own.
import type { Element, Properties, Root, RootContent } from 'hast';
import { SKIP, walkTree } from '../base/trees.ts';
import rehypeRaw from 'rehype-raw';
import { defaultSchema } from 'rehype-sanitize';
import type { VFile } from 'vfile';
import type { EscapedTag } from './raw-text-tags.ts';

export type Schema = typeof defaultSchema;
type AttributeRule = NonNullable<Schema['attributes']>[string][number];

/**
 * GitHub's schema, plus `abbr`, `mark`, `u`, `small`, `cite`, `dfn`, `time`, `figure` and
 * `figcaption`: text-level and grouping elements with no behaviour, which authors use.
 */
export const articleSchema: Schema = {
  ...defaultSchema,
  tagNames: [
    ...(defaultSchema.tagNames ?? []),
    'abbr',
    'mark',
    'u',
    'small',
    'cite',
    'dfn',
    'time',
    'figure',
    'figcaption',
  ],
  // A fence's caption and marked lines (markdown-code.ts), read and removed after highlighting.
  attributes: {
    ...defaultSchema.attributes,
    code: [...(defaultSchema.attributes?.code ?? []), 'dataCodeTitle', 'dataCodeMark'],
  },
};

/** The prefix the sanitiser puts before ids from the article (DOM clobbering: `id="location"`). */
const CLOBBER_PREFIX = articleSchema.clobberPrefix ?? 'user-content-';

/** What remark-rehype puts before footnote ids; replaced by the article's own after sanitising. */
export const FOOTNOTE_PREFIX = 'ssgfn-';
/** The id of the footnotes' hidden heading, as the sanitiser leaves it (remark-rehype does not prefix it). */
const FOOTNOTE_LABEL = `${CLOBBER_PREFIX}footnote-label`;

export interface RemovedHtml {
  /** The line in the Markdown given. */
  line: number;
  /** What was removed, as the author would recognise it: `<script>`, `the onclick attribute of <a>`. */
  what: string;
  /** Not removed but shown as text: a raw-text start tag never closed (`<style>`), an end tag without its `>` (`</style`). */
  escaped?: true;
}

type HtmlFileData = { rawHtml?: boolean; removedHtml?: RemovedHtml[]; escapedHtml?: EscapedTag[]; slug?: string };

/** rehype-raw, only for articles that hold raw HTML (the Markdown tree said so): it re-parses the whole tree. */
export function rehypeRawWhenPresent() {
  const raw = rehypeRaw();
  return (tree: Root, file: VFile) => ((file.data as HtmlFileData).rawHtml ? raw(tree, file) : undefined);
}

/**
 * A URL's scheme as the sanitiser reads it: whatever comes before the first `:`, unless a `/`,
 * `?` or `#` comes first (then it has none). So `foo):` has the scheme `foo)`, which no list allows.
 */
function schemeOf(url: string): string | undefined {
  const colon = url.indexOf(':');
  if (colon < 0) return undefined;
  const before = (mark: string) => url.includes(mark) && url.indexOf(mark) < colon;
  return before('/') || before('?') || before('#') ? undefined : url.slice(0, colon);
}

/**
 * A URL whose scheme the schema allows in another letter case (`MAILTO:`) is written with it in
 * lower case, as RFC 3986 makes it: the sanitiser compares schemes case by case and would drop it.
 */
export function rehypeLowercaseSchemes(schema: Schema = articleSchema) {
  return (tree: Root) =>
    eachElement(tree, (node) => {
      for (const [key, protocols] of Object.entries(schema.protocols ?? {})) {
        const value = node.properties[key];
        if (typeof value !== 'string') continue;
        const scheme = schemeOf(value);
        if (scheme && scheme !== scheme.toLowerCase() && protocols?.includes(scheme.toLowerCase()))
          node.properties[key] = scheme.toLowerCase() + value.slice(scheme.length);
      }
    });
}

/** Whether a property value is allowed by one rule of the schema (a name, or a name and the values allowed). */
function ruleAllows(rule: AttributeRule, key: string, value: unknown): boolean | undefined {
  if (typeof rule === 'string') return rule === key ? true : undefined;
  const [name, ...allowed] = rule as [string, ...Array<string | number | boolean | RegExp | null | undefined>];
  if (name !== key) return undefined;
  const values = Array.isArray(value) ? value : [value];
  return values.every((item) =>
    allowed.some((allow) => (allow instanceof RegExp ? allow.test(String(item)) : allow === item)),
  );
}

function attributeAllowed(schema: Schema, tagName: string, key: string, value: unknown): boolean {
  const rules = [...(schema.attributes?.[tagName] ?? []), ...(schema.attributes?.['*'] ?? [])];
  return rules.some((rule) => ruleAllows(rule, key, value) === true);
}

/** `onClick` → `onclick`, `className` → `class`, `dataFoo` → `data-foo`: as the author wrote it. */
const attributeName = (key: string) =>
  key === 'className'
    ? 'class'
    : key === 'htmlFor'
      ? 'for'
      : key.startsWith('data') || key.startsWith('aria')
        ? key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
        : key.toLowerCase();

/** The URL property's value with a scheme the schema does not allow (`javascript:`), if any. */
function unsafeUrl(schema: Schema, key: string, value: unknown): string | undefined {
  const protocols = schema.protocols?.[key];
  if (!protocols || typeof value !== 'string') return undefined;
  const scheme = schemeOf(value);
  return scheme === undefined || protocols.includes(scheme) ? undefined : value;
}

/** What the sanitiser will remove from one element of an allowed tag: attributes, unsafe URLs. */
function removedAttributes(schema: Schema, node: Element, line: number, removed: RemovedHtml[]): void {
  for (const [key, value] of Object.entries(node.properties as Properties)) {
    if (value === undefined || value === null || value === false) continue;
    const unsafe = unsafeUrl(schema, key, value);
    if (unsafe !== undefined)
      removed.push({
        line,
        what: `the ${attributeName(key)} "${unsafe.length > 40 ? `${unsafe.slice(0, 40)}…` : unsafe}" of <${node.tagName}>`,
      });
    else if (!attributeAllowed(schema, node.tagName, key, value))
      removed.push({ line, what: `the ${attributeName(key)} attribute of <${node.tagName}>` });
  }
}

/**
 * Before sanitising: notes what the sanitiser will remove (elements outside the schema, with
 * their content for `script`; attributes it does not allow; URLs with other schemes), each with
 * its line, so the build warns instead of the markup vanishing silently.
 */
export function rehypeNoteRemovedHtml(schema: Schema = articleSchema) {
  const allowedTags = new Set(schema.tagNames ?? []);
  const stripped = new Set(schema.strip ?? []);
  return (tree: Root, file: VFile) => {
    const removed: RemovedHtml[] = [];
    // An element the HTML parser made up (a table's implied parts in foreign content) has no
    // start: it is on the line of what came before it.
    let lastLine = 1;
    walkTree<RootContent>(tree, (node) => {
      const line = (lastLine = node.position?.start?.line ?? lastLine);
      if (node.type !== 'element') return undefined;
      if (allowedTags.has(node.tagName)) return removedAttributes(schema, node, line, removed);
      removed.push({
        line,
        what: stripped.has(node.tagName) ? `<${node.tagName}> and its content` : `<${node.tagName}> (its text is kept)`,
      });
      return stripped.has(node.tagName) ? SKIP : undefined;
    });
    const escaped = ((file.data as HtmlFileData).escapedHtml ?? []).map((tag): RemovedHtml => ({
      ...tag,
      escaped: true,
    }));
    (file.data as HtmlFileData).removedHtml = [...escaped, ...removed];
  };
}

const eachElement = (tree: Root, visit: (node: Element) => void) =>
  walkTree<RootContent>(tree, (node) => {
    if (node.type === 'element') visit(node);
  });

/**
 * For MDX, which is not sanitised: the sanitiser's prefix on the ids and the names they are
 * referred to by, so that rehypeLinkIds reads an MDX article's footnotes as a Markdown one's.
 */
export function rehypeClobberIds() {
  return (tree: Root) => {
    const prefixed = (id: string) => (id.startsWith(CLOBBER_PREFIX) ? id : `${CLOBBER_PREFIX}${id}`);
    eachElement(tree, (node) => {
      if (typeof node.properties.id === 'string') node.properties.id = prefixed(node.properties.id);
      const described = node.properties.ariaDescribedBy;
      if (Array.isArray(described)) node.properties.ariaDescribedBy = described.map((id) => prefixed(String(id)));
    });
  };
}

/**
 * After sanitising: footnote ids become the article's own (`<slug>-fn-1`, so two articles on one
 * page never share one), and a link to `#name` (or to the article's own page by its path and
 * `#name`) whose target's id, or an anchor's `name`, the sanitiser prefixed points at it again, as
 * GitHub's page script does. References ids (`aria-describedby`) follow.
 */
export function rehypeLinkIds() {
  return (tree: Root, file: VFile) => {
    const slug = (file.data as HtmlFileData).slug ?? 'note';
    const footnoteId = `${CLOBBER_PREFIX}${FOOTNOTE_PREFIX}`;
    const own = (id: string) =>
      id.startsWith(footnoteId)
        ? `${slug}-${id.slice(footnoteId.length)}`
        : id === FOOTNOTE_LABEL
          ? `${slug}-footnote-label`
          : id;
    const ids = new Set<string>();
    eachElement(tree, (node) => {
      if (typeof node.properties.id === 'string') ids.add((node.properties.id = own(node.properties.id)));
      // `<a name="install">`, as Markdown written for GitHub marks a place: a target like an id.
      if (node.tagName === 'a' && typeof node.properties.name === 'string') ids.add(node.properties.name);
      const described = node.properties.ariaDescribedBy;
      if (Array.isArray(described)) node.properties.ariaDescribedBy = described.map((id) => own(String(id)));
    });
    eachElement(tree, (node) => {
      const href = node.properties.href;
      if (node.tagName !== 'a' || typeof href !== 'string' || !href.includes('#')) return;
      const [place, target] = [href.slice(0, href.indexOf('#')), href.slice(href.indexOf('#') + 1)];
      // `#x`, or the article's own page by its path (`/news/<slug>#x`, `<slug>#x`).
      if (place !== '' && place.replace(/\/$/, '').split('/').pop() !== slug) return;
      if (place === '' && target.startsWith(FOOTNOTE_PREFIX))
        node.properties.href = `#${slug}-${target.slice(FOOTNOTE_PREFIX.length)}`;
      else if (!ids.has(target) && ids.has(`${CLOBBER_PREFIX}${target}`))
        node.properties.href = `${place}#${CLOBBER_PREFIX}${target}`;
    });
  };
}
