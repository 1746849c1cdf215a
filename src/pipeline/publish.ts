// Which articles a run publishes, and which of them a page was handed.
import { isPublished, sortNewestFirst, type Article } from '../content/article.ts';
import { duplicateSlug } from '../content/article-parser.ts';
import { SsgError, SsgErrorList } from '../errors/errors.ts';
import type { PageJob } from '../render/routes.ts';

/** Which articles are published: drafts with `--drafts`, those dated after `now` with `--future`. */
export interface PublishOptions {
  drafts?: boolean;
  future?: boolean;
  now: Date;
}

/**
 * The published articles, newest first, from each file's article or the error it gave, in file
 * order: every bad file reported at once, two files with one slug named as `build` names them
 * (held-back drafts and future posts too: they are published one day).
 */
export function publishArticles(byFile: ReadonlyMap<string, Article | SsgError>, options: PublishOptions): Article[] {
  const errors: SsgError[] = [];
  const bySlug = new Map<string, Article>();
  for (const file of [...byFile.keys()].sort()) {
    const article = byFile.get(file)!;
    if (article instanceof SsgError) {
      errors.push(article);
      continue;
    }
    const key = `${article.collection}/${article.locale ?? ''}/${article.slug}`;
    const existing = bySlug.get(key);
    if (existing) errors.push(duplicateSlug(existing, article));
    else bySlug.set(key, article);
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
  return sortNewestFirst([...bySlug.values()].filter((article) => isPublished(article, options)));
}

/** The articles a page was handed through its route entry: it can be rendered once they are converted. */
export function entryArticles(job: PageJob, known: ReadonlySet<Article>): Article[] {
  return Object.values(job.entry).filter((value): value is Article => known.has(value as Article));
}

/** The article file a page was made from: link errors name it, as the file to fix. */
export function sourceFileOf(job: PageJob, known: ReadonlySet<Article>): string | undefined {
  return entryArticles(job, known)[0]?.file;
}
