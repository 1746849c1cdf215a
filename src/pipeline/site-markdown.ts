// The site's Markdown settings for a run, and the copy of its compiled module that the helper
// processes import for its Markdown plugins and its drawers.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerBundle } from '../bundle/bundle-server.ts';
import { codeStampOf } from '../bundle/module-code.ts';
import { removeFilesOfEndedProcesses } from '../cache/store.ts';
import type { ArticleConverter } from '../content/conversion.ts';
import { needsSiteModule, type MarkdownOptions } from '../content/markdown-options.ts';
import { markdownStamp } from '../content/markdown-plugins.ts';
import { articleWords, type ArticleWords } from '../content/article-words.ts';
import { localesOf } from '../render/i18n.ts';
import type { ImageStage } from './images.ts';

/** The site's Markdown settings for a run: its plugins' options, their stamp, and the module copy helpers import. */
export interface SiteMarkdown {
  options?: MarkdownOptions;
  /** With `i18n`: the generator's words in each locale, for its articles. */
  words?: Record<string, ArticleWords>;
  /** Part of every article's Markdown cache key ('' without plugins). */
  stamp: string;
  /** A copy of the site's compiled module, for the helper processes' Markdown; given only when the site has plugins. */
  siteModule?: string;
  /** The same copy, for the helpers' drawing; written when the site has drawers. */
  drawModule?: string;
}

type MarkdownSettings = Pick<SiteMarkdown, 'options' | 'stamp' | 'words'>;
const settingsOf = new WeakMap<ServerBundle, MarkdownSettings>();

/** A bundle's Markdown options, its words per locale and their stamp, worked out once per bundle. */
export function markdownSettingsOf(bundle: ServerBundle | undefined): MarkdownSettings {
  if (!bundle) return { stamp: '' };
  let settings = settingsOf.get(bundle);
  if (!settings) {
    const options = (bundle.module.site as { markdown?: MarkdownOptions }).markdown;
    // A plugin of the site's own counts by its module and what that imports; a package's by its text (its version is in the stamp).
    const codeOf = (fn: (...args: never[]) => unknown) => codeStampOf(bundle, fn) ?? String(fn);
    const stamp = markdownStamp(options, bundle.sources, codeOf);
    const words = wordsByLocale(bundle.module.site);
    // Each article is converted in its locale's words: other words, every article again.
    const withWords = words
      ? `${stamp}:${createHash('sha256').update(JSON.stringify(words)).digest('hex').slice(0, 16)}`
      : stamp;
    settingsOf.set(bundle, (settings = { options, stamp: withWords, ...(words ? { words } : {}) }));
  }
  return settings;
}

/** With `i18n`: each locale's words, the site's own (`i18n.words`) over the built-in ones. */
function wordsByLocale(site: ServerBundle['module']['site']): Record<string, ArticleWords> | undefined {
  const i18n = localesOf(site);
  if (!i18n) return undefined;
  return Object.fromEntries(i18n.locales.map((locale) => [locale, articleWords(locale, i18n.words[locale])]));
}

const SITE_MODULE_FILE = /^markdown-site-(\d+)-[\w-]+\.mjs$/;

/** The copies of the site's module a build or a dev session writes for its helpers. */
export interface SiteModuleCopies {
  /** The copy of this code, written if it is not there yet. */
  of(code: Uint8Array): string;
  dispose(): void;
}

/**
 * One copy at a time, named after its code: a helper kept between runs (dev's) imports a changed
 * site anew. A new code's copy replaces the last one, which no helper imports any more: runs take
 * turns, and dev's edit helper starts afresh when the copy it was given changes.
 */
export function createSiteModuleCopies(cacheDir: string): SiteModuleCopies {
  let current: string | undefined;
  const dispose = () => {
    if (current) rmSync(current, { force: true });
    current = undefined;
  };
  return {
    of(code) {
      const file = path.join(
        cacheDir,
        `markdown-site-${process.pid}-${createHash('sha256').update(code).digest('base64url').slice(0, 12)}.mjs`,
      );
      if (file === current) return file;
      dispose();
      mkdirSync(cacheDir, { recursive: true });
      removeFilesOfEndedProcesses(cacheDir, SITE_MODULE_FILE);
      writeFileSync(file, code);
      return (current = file);
    },
    dispose,
  };
}

/**
 * The Markdown settings of the site whose bundle this is (none while the bundle failed: the run
 * fails too), with a copy of its module for the helpers when they need one: for its plugins, and
 * for its drawers (`drawing`, the default).
 */
export function siteMarkdownOf(
  copies: SiteModuleCopies,
  bundle: ServerBundle | undefined,
  { drawing = true } = {},
): SiteMarkdown {
  const settings = markdownSettingsOf(bundle);
  const plugins = Boolean(settings.stamp && needsSiteModule(settings.options));
  const drawers = drawing && Boolean(bundle && (bundle.module.site as { drawers?: object }).drawers);
  if (!bundle || (!plugins && !drawers)) return settings;
  const siteModule = copies.of(bundle.code);
  return { ...settings, ...(plugins ? { siteModule } : {}), ...(drawers ? { drawModule: siteModule } : {}) };
}

/** What the helper processes converting articles need: where their images are, and the site's plugins and reserved ids. */
export function articleConverter(images: ImageStage, markdown: SiteMarkdown): ArticleConverter {
  return {
    helperSettings: {
      ...images.helperSettings,
      ...(markdown.siteModule ? { siteModule: markdown.siteModule } : {}),
      ...(markdown.options?.reservedIds?.length ? { reservedIds: [...markdown.options.reservedIds] } : {}),
      ...(markdown.words ? { words: markdown.words } : {}),
    },
  };
}
