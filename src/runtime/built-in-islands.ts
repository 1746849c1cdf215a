// The islands the generator brings itself (besides the site's own in site/islands/): plain browser
// code in this folder, bundled for every site, fetched only by pages that show them.

/** The copy button of each code block in an article (copy-code.ts). */
export const COPY_CODE_ISLAND = 'ssg-copy-code';

/** Each built-in island's name and its module in src/runtime/. */
export const BUILT_IN_ISLANDS: Readonly<Record<string, string>> = { [COPY_CODE_ISLAND]: 'copy-code.ts' };
