// What rendering needs of the bundles, which the bundle stage makes: the site's code compiled for
// Node (with the renderer that shares its React), and the browser assets with their URLs.
import type { RenderedPage } from '../runtime/render-page.tsx';
import type { SiteDefinition } from './site-definition.ts';
import type { DeclarationSites } from '../content/declared-location.ts';

/** The site's code, compiled for Node, together with the renderer that shares its React. */
export interface ServerModule {
  site: SiteDefinition<Record<string, unknown>>;
  renderPage: (element: import('react').ReactElement) => RenderedPage;
  createElement: typeof import('react').createElement;
  /** Where the bundle's defineSite and defineCollection were called (the bundle's own record). */
  declarationSiteOf: DeclarationSites;
}

export interface OutputAsset {
  /** Path inside the output folder, with forward slashes: `assets/loader-AB12.js`. */
  path: string;
  contents: Uint8Array;
}

export interface ClientBundle {
  assets: OutputAsset[];
  /** URL of the style sheet every page links, if the site has one. */
  styleUrl?: string;
  /** The style sheet's text when pages carry it inline (small enough, and safe inside `<style>`). */
  inlineStyle?: { url: string; text: string };
  /** CSP sources that allow the inline style and the inline bootstrap script the pages may carry. */
  inlineHashes: { style: string[]; script: string[] };
  /** URL of the island loader; only pages with islands load it. */
  loaderUrl?: string;
  /** Island names that have code. */
  islands: Set<string>;
  /** The assets a page with these islands loads up front or on hydration, by URL. */
  assetsFor(islands: readonly string[]): { js: string[]; css: string[] };
  /** The scripts a page fetches before any interaction: its module scripts and what they import. */
  firstPaintScripts(html: string): string[];
  /** Gzip size of an asset by URL, measured once. */
  gzipSize(url: string): number;
  /** Every file the scripts and styles were made from, absolute, packages included. */
  sources: string[];
}
