// How a link to another article's file is written in Markdown and where it leads, in a module of
// its own: the link check reads it to quote what an author wrote, without loading the converter.
import { posix } from 'node:path';

/** A link target with no scheme, not absolute and not only a fragment: `other-post.md#part`. */
const RELATIVE_MARKDOWN = /^(?![a-z][a-z0-9+.-]*:|\/|#)((?:[^?#]*\/)?([^/?#]+))\.mdx?((?:\?[^#]*)?(?:#.*)?)$/i;

/**
 * A collection's articles are served side by side under their slug, whatever folder their file
 * is in, so a link to `other-post.md` (or `../2024/other-post.md`) becomes the relative URL
 * `other-post`. One to an article of another collection (`../docs/intro.md` from content/news)
 * leads to `/docs/intro`: its folder below content/ and its slug, where a collection's pages are
 * by convention (the link check reports a link a site routes elsewhere), when that file exists
 * (`exists`, relative to the project root): one to no file keeps the slug rule, as before
 * collections. `from`: the linking file, relative to the project root.
 */
export function articleLinkTarget(url: string, from?: string, exists: (file: string) => boolean = () => true): string {
  const match = RELATIVE_MARKDOWN.exec(url);
  if (!match) return url;
  const target = `${slugOfLink(match[2]!, match[1]!)}${match[3]!}`;
  const [content, own] = from?.split('/') ?? [];
  if (!from || !own) return target;
  const written = posix.normalize(posix.join(posix.dirname(from), match[1]!));
  const resolved = written.split('/');
  const other = resolved[0] === content && resolved.length > 2 ? resolved[1] : undefined;
  const file = `${written}${/\.mdx$/i.test(url.replace(/[?#].*$/s, '')) ? '.mdx' : '.md'}`;
  return other && other !== own && exists(file) ? `/${other}/${target}` : target;
}

/** `index.md` in a folder is the article named by its folder, as slugOf names it. */
function slugOfLink(name: string, written: string): string {
  if (!/^index$/i.test(name)) return name;
  const folder = posix.basename(posix.dirname(written));
  return folder === '.' || folder === '..' || folder === '' ? name : folder;
}

/** Each link target written in a Markdown source, with its line: `[a](x)`, `[a]: x`, `href="x"`, `src="x"`. */
export function writtenLinkTargets(source: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  const patterns = [
    /\]\(\s*<([^>]*)>/g,
    /\]\(\s*([^\s)]+)/g,
    /^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)/g,
    /\b(?:href|src)\s*=\s*["']([^"']*)["']/gi,
  ];
  source.split(/\r\n|\r|\n/).forEach((text, index) => {
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) found.push({ target: match[1]!, line: index + 1 });
    }
  });
  return found;
}
