import path from 'node:path';
import { Parser } from 'htmlparser2';
import { catalogueError, SsgErrorList, type SsgError } from '../errors/errors.ts';

/** A URL with a scheme (`https:`, `mailto:`, `data:`) or another host (`//`): not this site's. */
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * A page's `href` and `src` values and its fragment targets (every `id`, and the `name` of an
 * `<a>`), read by an HTML parser as a browser reads the markup: attribute values with their
 * entities decoded, and nothing taken from text, code samples, comments, scripts or styles (an
 * article that shows `<img src="/x.png">` in its code has no such image).
 */
function scanPage(html: string): { links: string[]; ids: Set<string> } {
  const links: string[] = [];
  const ids = new Set<string>();
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (attributes.href !== undefined) links.push(attributes.href);
        if (attributes.src !== undefined) links.push(attributes.src);
        if (attributes.id !== undefined) ids.add(attributes.id);
        if (name === 'a' && attributes.name !== undefined) ids.add(attributes.name);
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return { links, ids };
}

/** A page's address on a made-up origin, for resolving links written on it. */
const pageUrl = (pagePath: string) => `http://site.invalid${pagePath.startsWith('/') ? pagePath : `/${pagePath}`}`;

/** An internal link resolved against the page holding it: its path and fragment, or undefined when it leaves the site. */
export function resolveLink(value: string, pagePath: string): { path: string; fragment: string } | undefined {
  const link = value.trim();
  if (link === '' || EXTERNAL.test(link)) return undefined;
  let url: URL;
  try {
    url = new URL(link, pageUrl(pagePath));
  } catch {
    return undefined;
  }
  let fragment = url.hash.slice(1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    // kept as written: it cannot match an id, and is reported as missing
  }
  return { path: url.pathname, fragment };
}

/**
 * Whether a URL path is served by one of the output files, the way the static hosts map clean
 * URLs: `/about` to `about`, `about.html` or `about/index.html`; `/docs/` only to `docs/index.html`.
 */
export function resolvesTo(urlPath: string, files: ReadonlySet<string>): boolean {
  const site = sitePathOf(urlPath);
  if (!site) return false;
  const { bare, folder } = site;
  if (bare === '') return files.has('index.html');
  if (folder) return files.has(`${bare}/index.html`);
  return files.has(bare) || files.has(`${bare}.html`) || files.has(`${bare}/index.html`);
}

/**
 * A URL path as the static servers read it: decoded, dot segments and repeated slashes resolved
 * (`/.` is `/`), without its slashes at either end (`bare`), and whether it ended in one (`folder`).
 * Undefined for a malformed percent-encoding.
 */
function sitePathOf(urlPath: string): { bare: string; folder: boolean } | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  decoded = path.posix.normalize(`/${decoded}`);
  return { bare: decoded.replace(/^\/+/, '').replace(/\/+$/, ''), folder: decoded.endsWith('/') };
}

/** A page to check: its URL path, its HTML, and the source file it was made from, when there is one. */
export interface CheckedPage {
  path: string;
  html: string;
  file?: string;
}

/** One distinct link of a page: as written (entities decoded), and where it leads. */
export interface PageLink {
  written: string;
  path: string;
  fragment: string;
}

/** What the link check reads of a page, taken out of its HTML once: dev mode keeps it between rebuilds. */
export interface PageLinks {
  path: string;
  file?: string;
  /** Its distinct internal links, in order of appearance. */
  links: readonly PageLink[];
  /** The ids its own fragments and other pages' fragments may point to. */
  ids: ReadonlySet<string>;
  /**
   * Set on a page exactly as the last build made it, whose links all passed that build's check
   * (build: from the page cache): the other pages its fragments point at. None for a page with a
   * link in the form with a slash (its warning is said on every build).
   */
  passed?: { targets: readonly string[] };
}

/** The other pages a page's fragments point at (its own are its own business), each once. */
export function fragmentTargets(page: Pick<PageLinks, 'path' | 'links'>): string[] {
  const paths = new Set(page.links.filter((link) => link.fragment).map((link) => pageKey(link.path)));
  paths.delete(pageKey(page.path));
  return [...paths];
}

/** Whether a page has a link that may be the form with a slash of a page's address (`/news/hello/`): the check warns about it on every build. */
export const hasSlashedLink = (page: Pick<PageLinks, 'links'>) => page.links.some((link) => SLASHED.test(link.path));
const SLASHED = /[^/]\/+$/;

export function pageLinks(page: CheckedPage): PageLinks {
  const scanned = scanPage(page.html);
  const links = new Map<string, PageLink>();
  for (const written of scanned.links) {
    if (links.has(written)) continue;
    const link = resolveLink(written, page.path);
    if (link) links.set(written, { written, ...link });
  }
  // Copied out of the page: V8 keeps a substring as a slice of its parent, so each link or id
  // kept would hold the page's whole HTML to the end of a build.
  const copied = JSON.parse(JSON.stringify([[...links.values()], [...scanned.ids]])) as [PageLink[], string[]];
  return { path: page.path, file: page.file, links: copied[0], ids: new Set(copied[1]) };
}

/**
 * Whether a path with a slash after it (`/news/hello/`) names a page: `news/hello.html` is a file
 * of the site. Only a page: that is what the hosts (and `ssg serve`) redirect to; `/feed.xml/` or
 * `/news/hello.html/` answer 404 there.
 */
function isPageWithSlash(urlPath: string, files: ReadonlySet<string>): boolean {
  if (!SLASHED.test(urlPath)) return false;
  const bare = sitePathOf(urlPath)?.bare;
  return bare !== undefined && bare !== '' && files.has(`${bare}.html`);
}

/** The address to write for a link with a slash after its page: absolute, its query and fragment kept (`../a/?x#y` → `/news/a?x#y`). */
function canonicalForm(link: PageLink, pagePath: string): string {
  const url = new URL(link.written.trim(), pageUrl(pagePath));
  return `${url.pathname.replace(/\/+$/, '')}${url.search}${url.hash}`;
}

/**
 * What the last passing check saw, for the next check of mostly the same pages (dev mode): a page
 * that passed against the same set of files, whose fragments point at the same pages as then,
 * passes again without looking at each of its links.
 */
export interface LinkCheckMemo {
  files?: ReadonlySet<string>;
  byPath?: ReadonlyMap<string, PageLinks>;
  passed: WeakSet<PageLinks>;
  /** Each page's fragment links' target pages, other than itself. */
  fragments: WeakMap<PageLinks, string[]>;
}

/** An article this build leaves out (a draft, or dated after the build time), where it would be published. */
export interface HeldBackPage {
  file: string;
  reason: 'draft' | 'future';
  /** Its date, as front matter gives it (ISO 8601). */
  date: string;
}

/** What the check says beyond "leads nowhere": warnings, and the pages of articles held back (by URL path). */
export interface LinkCheckContext {
  warn?: (message: string) => void;
  /** The site's redirects, by source path: a link to one works, and is told where it leads. */
  redirects?: ReadonlyMap<string, string>;
  heldBack?: ReadonlyMap<string, HeldBackPage>;
  /**
   * The files the last build's check saw (build: kept with the page cache). When every one of them
   * is still there, a page that `passed` then, and whose fragments point only at pages that passed
   * then too (their ids are as they were), passes without its links being looked at.
   */
  previousFiles?: readonly string[];
  /** Told the files a check that passed saw. */
  checked?: (files: ReadonlySet<string>) => void;
  /**
   * Where a link is written, given it as it stands in the pages and the source files of the pages
   * that carry it (an article's file, or none): a site file or an article, with its line and the
   * link as the author wrote it (`../hello-world.md#faq` for `hello-world#faq`).
   */
  locate?: (written: string, files: readonly (string | undefined)[]) => LinkSource | undefined;
}

/** Where a link is written, and how. */
export interface LinkSource {
  file: string;
  line?: number;
  written: string;
}

/** One problem of one link, with every page that carries it. */
interface LinkProblem {
  code: 'LinkBroken' | 'LinkToHeldBack' | 'LinkFragmentMissing';
  link: PageLink;
  pages: PageLinks[];
  held?: HeldBackPage;
  target?: string;
}

/**
 * One error per link, however many pages carry it (a link in the layout is on every page): at
 * the file and line where it is written, quoting it as written there, naming the first page and
 * how many others carry it.
 */
function problemErrors(problems: Iterable<LinkProblem>, locate: LinkCheckContext['locate']): SsgError[] {
  return [...problems].map(({ code, link, pages, held, target }) => {
    const files = pages.map((page) => page.file);
    const source = locate?.(link.written, files);
    const sameFile = files.every((file) => file === files[0]) ? files[0] : undefined;
    const where = source ? { file: source.file, line: source.line } : { file: sameFile };
    const written = source?.written ?? link.written;
    const page = pages[0]!.path;
    const others = pages.length - 1;
    if (code === 'LinkToHeldBack')
      return catalogueError(code, [page, written, held!.reason, held!.file, held!.date, others], where);
    if (code === 'LinkFragmentMissing')
      return catalogueError(code, [page, written, target!, link.fragment, others], where);
    return catalogueError(code, [page, written, others], where);
  });
}

export const createLinkCheckMemo = (): LinkCheckMemo => ({ passed: new WeakSet(), fragments: new WeakMap() });

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) =>
  a.size === b.size && [...a].every((item) => b.has(item));
const pageKey = (urlPath: string) => urlPath.replace(/\/+$/, '') || '/';

/** Whether `page` passed the last check and nothing it was checked against has changed since. */
function stillPasses(page: PageLinks, memo: LinkCheckMemo, byPath: ReadonlyMap<string, PageLinks>): boolean {
  if (!memo.passed.has(page)) return false;
  let targets = memo.fragments.get(page);
  // Its own fragments are as they were: it is the same page.
  if (!targets) memo.fragments.set(page, (targets = fragmentTargets(page)));
  return targets.every((target) => byPath.get(target) === memo.byPath!.get(target));
}

/** What a link to each path comes to, each path looked at once: most links (the header, the footer) are on every page. */
function linkVerdicts(ignore: readonly string[], files: ReadonlySet<string>, byPath: ReadonlyMap<string, PageLinks>) {
  const verdicts = new Map<
    string,
    { ignored: boolean; found: boolean; slashed: boolean; target: PageLinks | undefined }
  >();
  return (urlPath: string) => {
    let verdict = verdicts.get(urlPath);
    if (!verdict) {
      const ignored = ignore.some((prefix) => urlPath.startsWith(prefix));
      let found = !ignored && resolvesTo(urlPath, files);
      // `/news/hello/` (as Hugo writes links) where `/news/hello` is a page: the hosts answer it
      // with one redirect to the page, so it works; the check says which address to write.
      const slashed = !ignored && !found && isPageWithSlash(urlPath, files);
      found ||= slashed;
      verdicts.set(
        urlPath,
        (verdict = { ignored, found, slashed, target: found ? byPath.get(pageKey(urlPath)) : undefined }),
      );
    }
    return verdict;
  };
}

/**
 * Every internal link and source on every page must lead to a page, a generated or public file,
 * and a `#fragment` to an id on the page it leads to. Paths under `ignore` (an API the server
 * answers) are skipped. Dev passes pages with their links taken out and a `memo` between rebuilds.
 */
export function checkLinks(
  pages: ReadonlyArray<CheckedPage | PageLinks>,
  files: ReadonlySet<string>,
  ignore: readonly string[] = ['/api/'],
  memo?: LinkCheckMemo,
  context: LinkCheckContext = {},
): void {
  const checked = pages.map((page) => ('ids' in page ? page : pageLinks(page)));
  const byPath = new Map(checked.map((page) => [page.path, page]));
  const sameFiles = memo?.files !== undefined && sameSet(memo.files, files);
  const verdictOf = linkVerdicts(ignore, files, byPath);
  const problems = new Map<string, LinkProblem>();
  const note = (problem: Omit<LinkProblem, 'pages'>, page: PageLinks) => {
    const key = `${problem.code}\0${problem.link.written}\0${problem.link.path}`;
    const known = problems.get(key);
    if (known) known.pages.push(page);
    else problems.set(key, { ...problem, pages: [page] });
  };
  // Nothing the last build's links led to has gone since.
  const allStillThere = context.previousFiles?.every((file) => files.has(file)) === true;
  const passedAsBefore = (page: PageLinks) =>
    allStillThere &&
    page.passed !== undefined &&
    page.passed.targets.every((target) => byPath.get(target)?.passed !== undefined);
  for (const page of checked) {
    if (sameFiles && stillPasses(page, memo!, byPath)) continue;
    if (passedAsBefore(page)) continue;
    for (const link of page.links) {
      const { ignored, found, slashed, target } = verdictOf(link.path);
      if (ignored) continue;
      const movedTo = found ? context.redirects?.get(link.path.replace(/(.)\/+$/, '$1')) : undefined;
      if (movedTo !== undefined) {
        context.warn?.(
          `${page.file ?? page.path}: the page ${page.path} links to ${link.written}, which redirects to ${movedTo}; link to ${movedTo} instead.`,
        );
        continue;
      }
      if (slashed)
        context.warn?.(
          `${page.file ?? page.path}: the page ${page.path} links to ${link.written}; write ${canonicalForm(link, page.path)}, the page's own address (hosts answer the form with a slash by a redirect).`,
        );
      const held = found ? undefined : context.heldBack?.get(pageKey(link.path).replace(/\.html$/, ''));
      if (held) {
        note({ code: 'LinkToHeldBack', link, held }, page);
      } else if (!found) {
        note({ code: 'LinkBroken', link }, page);
      } else if (link.fragment && link.fragment !== 'top' && target && !target.ids.has(link.fragment)) {
        note({ code: 'LinkFragmentMissing', link, target: target.path }, page);
      }
    }
  }
  const errors = problemErrors(problems.values(), context.locate);
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
  context.checked?.(files);
  if (memo) {
    memo.files = files;
    memo.byPath = byPath;
    for (const page of checked) memo.passed.add(page);
  }
}
