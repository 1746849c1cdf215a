// What kind of input each changed file is, and which articles a changed image belongs to.
import { statSync } from 'node:fs';
import path from 'node:path';
import { isArticleName } from '../content/article-file.ts';
import { collectionOf, isDataEntryName, resolveCollections, type ResolvedCollection } from '../content/collections.ts';
import type { Project } from '../project.ts';
import type { ImageStage } from './images.ts';
import type { ChangeKind, State } from './pipeline-types.ts';

export const relative = (project: Project, file: string) => path.relative(project.root, file).split(path.sep).join('/');

/**
 * Which kind of input a file is, or undefined for files the site does not read: an article or a
 * data file by the collection whose folder it is in (`collections`: the last run's).
 */
export function classify(
  project: Project,
  file: string,
  collections: readonly ResolvedCollection[] = resolveCollections(project.contentDir, undefined, ''),
): ChangeKind | undefined {
  const absolute = path.resolve(project.root, file);
  const inside = (dir: string) => absolute === dir || absolute.startsWith(dir + path.sep);
  if (absolute === project.template) return 'template';
  const collection = collectionOf(collections, absolute);
  if (collection?.type === 'content')
    return isArticleName(path.relative(collection.dir, absolute)) ? 'article' : undefined;
  if (collection?.type === 'data') return isDataEntryName(path.relative(collection.dir, absolute)) ? 'data' : undefined;
  if (path.dirname(absolute) === project.contentDir) return /\.ya?ml$/i.test(absolute) ? 'data' : undefined;
  if (inside(project.publicDir)) return 'public';
  if (inside(path.join(project.root, 'site'))) return absolute.endsWith('.css') ? 'style' : 'code';
  return undefined;
}

/**
 * The changed files by kind. An image file an article shows (beside it or in the public folder)
 * changes that article too: it is read and its images processed again.
 */
export function classifyAll(
  project: Project,
  changed: Iterable<string>,
  state: State | undefined,
  images: ImageStage,
): Map<ChangeKind, string[]> {
  const readers = new Map<string, string[]>();
  for (const article of state?.articles ?? []) {
    for (const source of images.sources(article))
      readers.set(source, [...(readers.get(source) ?? []), path.resolve(project.root, article.file)]);
  }
  const kinds = new Map<ChangeKind, Set<string>>();
  const add = (kind: ChangeKind | undefined, file: string) =>
    kind && kinds.set(kind, (kinds.get(kind) ?? new Set()).add(file));
  for (const changedFile of changed) {
    const file = path.resolve(project.root, changedFile);
    add(classify(project, file, state?.collections), file);
    for (const article of readers.get(file) ?? []) add('article', article);
  }
  return new Map([...kinds].map(([kind, files]) => [kind, [...files]]));
}

export const statIsFile = (file: string) => statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
