// A helper process that converts articles: the pool sends batches, it answers with the HTML, each
// article's images checked, processed (through the shared image cache) and shown as pictures.
import { openImageCache, type ImageCache } from '../images/image-cache.ts';
import { DEFAULT_IMAGE_SETTINGS } from '../images/process.ts';
import { pathToFileURL } from 'node:url';
import { convertArticle } from './markdown.ts';
import type { MarkdownOptions } from './markdown-options.ts';
import { convertOne, type ArticleToConvert, type ConvertedArticle, type HelperImageSettings } from './conversion.ts';

export interface MarkdownBatch {
  batch: number;
  settings: HelperImageSettings;
  items: ArticleToConvert[];
}

export interface MarkdownBatchResult {
  batch: number;
  converted: ConvertedArticle[];
}

// The helper lives only as long as the build: when the channel to it closes (the build ended,
// or was killed, even by SIGKILL), it exits.
process.on('disconnect', () => process.exit(0));
if (!process.connected) process.exit(0);

let cache: ImageCache | undefined;
const siteOptions = new Map<string, Promise<MarkdownOptions | undefined>>();

/** The site's Markdown options, from its compiled module (imported once). */
function markdownOptionsOf(file: string | undefined): Promise<MarkdownOptions | undefined> {
  if (!file) return Promise.resolve(undefined);
  let options = siteOptions.get(file);
  if (!options) siteOptions.set(file, (options = import(pathToFileURL(file).href).then((module: { site?: { markdown?: MarkdownOptions } }) => module.site?.markdown)));
  return options;
}

process.on('message', async ({ batch, settings, items }: MarkdownBatch) => {
  cache ??= openImageCache({ cacheDir: settings.cacheDir, settings: DEFAULT_IMAGE_SETTINGS, assetsDir: settings.assetsDir });
  const options = await markdownOptionsOf(settings.siteModule);
  const converted: ConvertedArticle[] = [];
  for (const item of items) {
    converted.push(await convertOne(() => convertArticle(item.markdown, { ...settings, file: item.file, bodyLine: item.bodyLine, cache: cache! }, options)));
  }
  if (process.connected) process.send!({ batch, converted } satisfies MarkdownBatchResult);
});
