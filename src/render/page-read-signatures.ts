// What a kept page read (the article list, some fields of an article, a data file, a tag's group,
// a page of a list), each with its signature as the page saw it: a page is kept while every one
// of them has the same signature today.
import { createHash } from 'node:crypto';
import { CONVERTED_FIELDS, type Article } from '../content/article.ts';
import { listReadTexts, type PageReads } from './dependencies.ts';
import { listNamed } from './list-views.ts';

const READ_END = '\x01';
const LINE_END = '\x02';

/** An article's fields made from its body (by its conversion, or as it is parsed): known by the content key before it is converted. */
const BODY_FIELDS = new Set([...CONVERTED_FIELDS, 'markdown', 'bodyLine']);

export const sha1 = (...parts: Array<string | Uint8Array>) => {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('base64');
};

/** What the signatures are worked out from: the published articles, their content keys, the data. */
export interface ReadSources {
  /** The published articles, newest first. */
  articles: readonly Article[];
  /** The content hash of each article's source file. */
  keys: ReadonlyMap<string, string>;
  data: Record<string, unknown>;
}

/**
 * The signature today of each thing a page may have read (memoised for the build): '*' the list's
 * members and order ('*@<view>' a view's: list-views.ts), '*:<field>' one field of every article,
 * 'a:<file>\0<fields>' some fields of one article, 'd:<name>' a data file, 'g:<tag>' a tag's group
 * ('n:<tag>' its name alone), 'p:<size>:<number>:<list>' one page of a list. Undefined for what
 * no longer exists.
 */
export function readSignatures(inputs: ReadSources): (read: string) => string | undefined {
  const byFile = new Map(inputs.articles.map((article) => [article.file, article]));
  const signatures = new Map<string, string | undefined>();
  /** What a field of an article is, as a page shows it: by its value, or by the content key when made from the body. */
  const fieldValue = (article: Article, field: string) =>
    BODY_FIELDS.has(field)
      ? (inputs.keys.get(article.file) ?? sha1(article.markdown))
      : (JSON.stringify((article as unknown as Record<string, unknown>)[field]) ?? 'undefined');

  /**
   * The fields a page read of one article: what it showed of them. Fields made from the body (the
   * HTML, headings, reading time) by the file's content key, as the article may not be converted
   * yet; the others by their values. So a list page that shows titles is taken from the cache
   * after an edit to an article's body.
   */
  const articleFields = (read: string): string | undefined => {
    const [file, fields = ''] = read.slice(2).split('\0');
    const article = byFile.get(file!);
    return article && sha1(...fields.split(',').map((field) => `${field}=${fieldValue(article, field)}`));
  };

  /** A tag's group, its name or a page of a list as a page that read it saw it ('none': no such group now). */
  const lists = listReadTexts(inputs.articles);
  const listRead = (text: () => string | undefined): string | undefined => {
    try {
      const seen = text();
      return seen === undefined ? 'none' : sha1(seen);
    } catch {
      return undefined; // a tag that is no text: the build stops on it anyway
    }
  };

  const compute = (read: string): string | undefined => {
    if (read === '*' || read.startsWith('*@'))
      return sha1(...listNamed(inputs.articles, read).list.map((article) => article.file));
    if (read.startsWith('g:')) return listRead(() => lists.group(read.slice(2)));
    if (read.startsWith('n:')) return listRead(() => lists.name(read.slice(2)));
    if (read.startsWith('p:')) return listRead(() => lists.page(read.slice(2)));
    // One field of every article of the list (a tag's page reads every article's tags).
    if (read.startsWith('*:'))
      return sha1(...inputs.articles.map((article) => `${article.file}=${fieldValue(article, read.slice(2))}`));
    if (read.startsWith('a:')) return articleFields(read);
    if (read.startsWith('d:')) return sha1(JSON.stringify(inputs.data[read.slice(2)]) ?? 'undefined');
    return undefined;
  };
  return (read) => {
    if (signatures.has(read)) return signatures.get(read);
    const signature = compute(read);
    signatures.set(read, signature);
    return signature;
  };
}

/** What a page read, each read with its signature today (see StoredPage.reads). */
export function readLines(reads: PageReads, current: (read: string) => string | undefined): string {
  const lines: string[] = [];
  const add = (read: string) => lines.push(`${read}${READ_END}${current(read) ?? ''}`);
  if (reads.articleList) add('*');
  for (const key of reads.viewLists) add(`*@${key}`);
  for (const field of reads.listFields) add(`*:${field}`);
  for (const [slug, fields] of reads.articleFields) add(`a:${slug}\0${[...fields].sort().join(',')}`);
  for (const name of reads.dataKeys) add(`d:${name}`);
  for (const slug of reads.tagGroups) add(`g:${slug}`);
  for (const slug of reads.tagNames) add(`n:${slug}`);
  for (const page of reads.listPages) add(`p:${page}`);
  return lines.join(LINE_END);
}

/** Whether everything a stored page read has the signature today it had then. */
export function readsAsBefore(reads: string, current: (read: string) => string | undefined): boolean {
  if (reads === '') return true;
  for (const line of reads.split(LINE_END)) {
    const at = line.indexOf(READ_END);
    if (at < 0 || current(line.slice(0, at)) !== line.slice(at + 1)) return false;
  }
  return true;
}
