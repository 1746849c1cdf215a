/** Article images are shown at most as wide as the article column (46rem), else across the screen. */
export const ARTICLE_IMAGE_SIZES = '(min-width: 46rem) 46rem, 100vw';
