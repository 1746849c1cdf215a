// What converting an article means wherever it runs (this process or a helper): its input, its
// result (HTML, or the problems its images had), and how the image stage takes part.
import type { ArticleWords } from './article-words.ts';
import { catalogueError, problemData, type ProblemData } from '../errors/errors.ts';
import { isStackOverflow } from './limits.ts';
import type { ConvertedMarkdown } from './markdown.ts';

/** One article to convert: its Markdown body, its file (from the project root) and the line the body starts on. */
export interface ArticleToConvert {
  markdown: string;
  file: string;
  bodyLine: number;
  /** With `i18n`: the article's locale, whose words (HelperImageSettings.words) it is converted with. */
  locale?: string;
}

/** An article converted, or the problems its images had. */
export interface ConvertedArticle extends ConvertedMarkdown {
  error?: ProblemData;
}

/** What the helpers converting articles need: where the images are, and the site's Markdown settings, as plain data. */
export interface ArticleConverter {
  helperSettings: HelperImageSettings;
}

/** Where a helper finds the images of the articles and keeps what it makes of them. */
export interface HelperImageSettings {
  /** A copy of the site's compiled module, when it has Markdown plugins: the helper imports it for them. */
  siteModule?: string;
  /** The ids no heading may take (the site's `markdown.reservedIds`), as data. */
  reservedIds?: string[];
  root: string;
  contentDir: string;
  publicDir: string;
  cacheDir: string;
  assetsDir: string;
  sizes: string;
  /** What processes images, as the build found it (sharpVersion): part of the image cache's keys. */
  imageProcessor?: string;
  /** With `i18n`: the generator's words in each locale, for the articles of each. */
  words?: Record<string, ArticleWords>;
}

/** Hears of each finished batch (its articles' indexes) as it lands. */
export type OnBatch = (indexes: number[], converted: ConvertedArticle[]) => void;

/** What converts articles in batches (the helper processes' pool: src/pool/). */
export interface BatchConverter {
  /** Converts every article; `onBatch` hears of each finished batch (by index) as it lands. */
  convert(items: readonly ArticleToConvert[], onBatch?: OnBatch): Promise<ConvertedArticle[]>;
}

/**
 * Converts one article (`file`) here; its expected problems become its result, and so does a
 * structure nested too deep for the converter's stack (HTML elements, say, which no check before
 * conversion counts); anything else is thrown on.
 */
export async function convertOne(file: string, convert: () => Promise<ConvertedMarkdown>): Promise<ConvertedArticle> {
  try {
    return await convert();
  } catch (caught) {
    return failedConversion(
      isStackOverflow(caught) ? catalogueError('ArticleTooDeep', ['stack'], { file }, { cause: caught }) : caught,
    );
  }
}

/** An article that could not be converted, its expected problems as its result; anything else is thrown on. */
export function failedConversion(error: unknown): ConvertedArticle {
  const data = problemData(error);
  if (!data) throw error;
  return { html: '', removedHtml: [], headings: [], words: 0, error: data };
}
