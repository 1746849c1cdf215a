import type { Article } from '../../src/content/article.ts';

/** An article as parsed, with every field set (empty unless given): for tests of what reads articles. */
export const testArticle = (slug: string, extra: Partial<Article> = {}): Article => ({
  collection: 'news',
  slug,
  title: slug,
  date: '2025-01-01',
  excerpt: '',
  excerptHtml: '',
  markdown: '',
  html: '',
  draft: false,
  file: `content/news/${slug}.md`,
  data: {},
  headings: [],
  readingTime: 0,
  ...extra,
});
