// How a link to another article's file is written in Markdown and where it leads, in a module of
// its own: the link check reads it to quote what an author wrote, without loading the converter.

/** A link target with no scheme, not absolute and not only a fragment: `other-post.md#part`. */
const RELATIVE_MARKDOWN = /^(?![a-z][a-z0-9+.-]*:|\/|#)((?:[^?#]*\/)?([^/?#]+))\.mdx?((?:\?[^#]*)?(?:#.*)?)$/i;

/**
 * Articles are served side by side under their slug, whatever folder their file is in, so a link
 * to `other-post.md` (or `../2024/other-post.md`) becomes the relative URL `other-post`.
 */
export function articleLinkTarget(url: string): string {
  const match = RELATIVE_MARKDOWN.exec(url);
  return match ? `${match[2]!}${match[3]!}` : url;
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
