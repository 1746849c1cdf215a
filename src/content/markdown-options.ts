// What a site may change of the Markdown pipeline, as Astro's `markdown` option has it: its own
// remark and rehype plugins, each a plugin or `[plugin, options]`, and elements and attributes
// its plugins make that the sanitiser should keep.
import type { Pluggable } from 'unified';

export interface MarkdownOptions {
  /** Run on the Markdown tree, after the built-in ones (GFM, links to articles). */
  remarkPlugins?: readonly Pluggable[];
  /** Run on the HTML tree, after raw HTML is parsed and before sanitising: what they make is sanitised too. */
  rehypePlugins?: readonly Pluggable[];
  /**
   * Added to the sanitiser's schema (GitHub's, plus a few), for what the site's plugins make:
   * element names, and attributes by element name (`'*'` for any). Scripts, event handlers,
   * `style` attributes and other URL schemes stay removed whatever is listed here.
   */
  allow?: { tagNames?: readonly string[]; attributes?: Readonly<Record<string, readonly string[]>> };
}

/** Whether a site's options change anything: a plugin, or something allowed. */
export function changesMarkdown(options: MarkdownOptions | undefined): options is MarkdownOptions {
  return Boolean(options && (options.remarkPlugins?.length || options.rehypePlugins?.length || options.allow));
}
