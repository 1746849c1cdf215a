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
  /**
   * Ids the site's own pages use around an article's body (the layout's `main`, a menu's): no
   * heading of an article takes one (`## Main` gets `main-1`), so no link or table of contents
   * leads to the wrong element.
   */
  reservedIds?: readonly string[];
}

/** Whether a site's options change anything: a plugin, or something allowed. */
export function changesMarkdown(options: MarkdownOptions | undefined): options is MarkdownOptions {
  return Boolean(
    options &&
    (options.remarkPlugins?.length || options.rehypePlugins?.length || options.allow || options.reservedIds?.length),
  );
}

/** Whether the options hold the site's code (plugins) or its schema, which helpers take from the site's module; reserved ids travel as data. */
export function needsSiteModule(options: MarkdownOptions | undefined): boolean {
  return Boolean(options && (options.remarkPlugins?.length || options.rehypePlugins?.length || options.allow));
}
