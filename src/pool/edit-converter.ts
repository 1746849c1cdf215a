// Dev's converter of edited articles: one helper kept between saves.
import type { ArticleLimits } from '../content/limits.ts';
import type { Interrupts } from '../base/interrupt.ts';
import { SsgError } from '../errors/errors.ts';
import {
  failedConversion,
  type ArticleConverter,
  type ArticleToConvert,
  type ConvertedArticle,
} from '../content/conversion.ts';
import { endedBeforeSent } from './helper-dispatcher.ts';
import { createMarkdownPool, type MarkdownPool, type OnBatch } from './markdown-pool.ts';
import { WARM_UP_ARTICLE, WARM_UP_CONVERSIONS } from './warm-up.ts';

/** Converts one article at a time in a helper kept between calls (dev's edits): each with the time and memory budget of a build's. */
export interface EditConverter {
  /** The article converted, or its problems (its time budget passed among them). */
  convert(item: ArticleToConvert, converter: ArticleConverter): Promise<ConvertedArticle>;
  /** Each article in turn, as a run's pool converts them: `onBatch` hears of each as it lands. */
  convertAll(
    items: readonly ArticleToConvert[],
    converter: ArticleConverter,
    onBatch?: OnBatch,
  ): Promise<ConvertedArticle[]>;
  /**
   * Starts the helper for these settings before the first edit, so that one costs no process
   * start, and has it convert a sample article a few times (see warm-up.ts). Settles when that is
   * done (or failed: warming never fails).
   */
  warm(converter: ArticleConverter): Promise<void>;
  close(): Promise<void>;
}

/**
 * Dev's converter of edited articles: one helper, started on the first edit and kept, so a save
 * costs a message, not a process start; started anew when the site's Markdown settings change
 * (a new copy of its module: the helper would keep the old plugins). An article that passes its
 * time budget is its problem, as in a build; the helper taking its place converts the next.
 */
export function createEditConverter(options: {
  cacheDir: string;
  interrupts?: Interrupts;
  limits?: Pick<ArticleLimits, 'timeoutMs' | 'helperMemoryMb'>;
}): EditConverter {
  let current: { pool: MarkdownPool; settings: string } | undefined;
  const poolFor = async (converter: ArticleConverter) => {
    const settings = JSON.stringify(converter.helperSettings);
    if (current && current.settings !== settings) {
      await current.pool.close();
      current = undefined;
    }
    return (current ??= { pool: createMarkdownPool({ ...options, converter, size: 1 }), settings });
  };
  const convert = async (item: ArticleToConvert, converter: ArticleConverter): Promise<ConvertedArticle> => {
    for (let attempt = 1; ; attempt++) {
      const { pool } = await poolFor(converter);
      try {
        return (await pool.convert([item]))[0]!;
      } catch (error) {
        // Its helper ended by itself (killed, or it could not start): the pool is done, and the
        // next conversion starts a new one. An article that never reached it is sent there now.
        if (error instanceof SsgError && error.code === 'MarkdownHelperEnded' && current?.pool === pool) {
          current = undefined;
          void pool.close().catch(() => {});
          if (attempt === 1 && endedBeforeSent(error)) continue;
        }
        // Its helper ran out of time or memory for it: its problem, as a build reports it.
        return failedConversion(error);
      }
    }
  };
  return {
    convert,
    async convertAll(items, converter, onBatch) {
      const results: ConvertedArticle[] = [];
      for (const [index, item] of items.entries()) {
        results.push(await convert(item, converter));
        onBatch?.([index], [results[index]!]);
      }
      return results;
    },
    async warm(converter) {
      try {
        const { pool } = await poolFor(converter);
        const sample = { markdown: WARM_UP_ARTICLE, file: 'warm-up.md', bodyLine: 1 };
        await pool.convert(Array.from({ length: WARM_UP_CONVERSIONS }, () => sample));
      } catch {
        // Only slower first saves.
      }
    },
    async close() {
      await current?.pool.close();
      current = undefined;
    },
  };
}
