import { existsSync } from 'node:fs';
import path from 'node:path';

/** Article images are shown at most as wide as the article column (46rem), else across the screen. */
export const ARTICLE_IMAGE_SIZES = '(min-width: 46rem) 46rem, 100vw';

/**
 * The article an image in a page bundle belongs to (`news/x/chart.png` → `news/x/index.md`), so
 * that dev mode renders it again when the image changes; undefined for anything else.
 */
export function bundleArticleOf(file: string, articlesDir: string): string | undefined {
  if (!file.startsWith(articlesDir + path.sep) || !/\.(png|jpe?g|webp|avif|gif|tiff?|svg)$/i.test(file)) return undefined;
  const index = path.join(path.dirname(file), 'index.md');
  return existsSync(index) ? index : undefined;
}
