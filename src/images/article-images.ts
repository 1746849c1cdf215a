import { createHash } from 'node:crypto';
import { readFileSync, statSync, type Stats } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { catalogueError, mergeProblems, problemAt, SsgError, SsgErrorList } from '../errors/errors.ts';
import type { Element, Root, RootContent } from 'hast';
import type { Root as MdastRoot, RootContent as MdastContent } from 'mdast';
import { walkTree } from '../base/trees.ts';
import type { VFile } from 'vfile';
import type { ImageCache, ImageProcessor } from './image-cache.ts';
import {
  altProblem,
  DECORATIVE_ALT,
  isFile,
  layoutOf,
  resolveImageFile,
  type ImageFolders,
  type ImageReference,
} from './image-reference.ts';
import { pictureElement, pictureOf, plainImageElement, shownSize } from './picture.ts';
import { isRasterPath, loadSharp, outputBaseName, type ProcessedImage } from './process.ts';

/** What the build learns of one source file: processed (raster) or shown as it is (SVG) with its size. */
type ShownPlain = { kind: 'plain'; path: string; contents: Uint8Array; width?: number; height?: number };
type Shown = ({ kind: 'picture'; image: ProcessedImage } | ShownPlain) & { source: SourceStamp };

/** A source file as it was read: its size, times and inode (a quick check), and its content's hash (the sure one). */
interface SourceStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  sha256: string;
}

/** A file as it was read: its stat, and its bytes' hash for when the times changed but not they. */
export const stampOf = (stat: Stats, bytes: Uint8Array): SourceStamp => ({
  size: stat.size,
  mtimeMs: stat.mtimeMs,
  ctimeMs: stat.ctimeMs,
  ino: stat.ino,
  sha256: createHash('sha256').update(bytes).digest('hex'),
});

async function showAsIs(file: string, bytes: Uint8Array, assetsDir: string): Promise<ShownPlain> {
  const metadata = await (
    await loadSharp()
  )(bytes)
    .metadata()
    .catch(() => undefined);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 10);
  const base = outputBaseName(file);
  return {
    kind: 'plain',
    path: `${assetsDir}/${base}-${hash}${path.extname(file).toLowerCase()}`,
    contents: bytes,
    width: metadata?.width,
    height: metadata?.height,
  };
}

/** What converting one article needs to show its images: where it is, and the image cache. */
export interface ArticleImageContext extends ImageFolders {
  /** The article file, from the project root. */
  file: string;
  /** The line of the file its Markdown body starts on. */
  bodyLine: number;
  cache: Pick<ImageCache, 'recording'>;
  /** The folder of the output the variants go in (relative to the output root). */
  assetsDir: string;
  /** The `sizes` attribute of article images: how wide the article column is shown. */
  sizes: string;
  /** The site's cache folder: an MDX article's module is imported from there. */
  cacheDir?: string;
}

/**
 * What an article's images were made from, for the output and for knowing when to make them
 * again. Files are named from the project root: a copy of the project checks its own files.
 */
export interface ArticleImageRecord {
  /** Each file read, as it was read: the article is converted again when one changes. */
  sources: Array<{ file: string } & SourceStamp>;
  /** Each file shown, once: processed (the image cache entry holding it) or as it is (SVG, its path in the output). */
  shown: Array<{ file: string; entry?: string; path?: string }>;
}

interface FoundImage {
  parent: Root | Element;
  index: number;
  /** Where it starts in the Markdown: the order it is shown in. */
  offset: number;
  reference: ImageReference;
}

type ImageFileData = {
  imageUrls?: Map<number, string>;
  imageContext?: ArticleImageContext;
  images?: ArticleImageRecord;
};

/**
 * On the Markdown tree: each image's URL as the author wrote it (`./café.png`, not the encoded
 * `./caf%C3%A9.png` of the HTML), by where it starts in the source; a reference image by its
 * definition's URL. Messages quote what the author wrote.
 */
export function remarkNoteImageUrls() {
  return (tree: MdastRoot, file: VFile) => {
    const data = file.data as ImageFileData;
    if (!data.imageContext) return;
    const urls = new Map<number, string>();
    const definitions = new Map<string, string>();
    const references: Array<[number, string]> = [];
    // In document order: the first definition of a label is the one used, as CommonMark says.
    walkTree<MdastContent>(tree, (node) => {
      const offset = node.position?.start?.offset;
      if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node.url);
      else if (node.type === 'image' && offset !== undefined) urls.set(offset, node.url);
      else if (node.type === 'imageReference' && offset !== undefined) references.push([offset, node.identifier]);
    });
    for (const [offset, identifier] of references)
      if (definitions.has(identifier)) urls.set(offset, definitions.get(identifier)!);
    data.imageUrls = urls;
  };
}

/**
 * Before sanitising, for images the Markdown tree did not note (raw HTML): the src as written. The
 * sanitiser removes a `data:` or `javascript:` src, and the error should still name it.
 */
export function rehypeNoteImageUrls() {
  return (tree: Root, file: VFile) => {
    const data = file.data as ImageFileData;
    if (!data.imageContext) return;
    const urls = (data.imageUrls ??= new Map());
    eachElement(tree, (node) => {
      const offset = node.position?.start?.offset;
      if (node.tagName === 'img' && offset !== undefined && !urls.has(offset))
        urls.set(offset, String(node.properties.src ?? ''));
    });
  };
}

/** Calls `visit` on every element with its parent and index, in document order. */
const eachElement = (tree: Root, visit: (node: Element, parent: Root | Element, index: number) => void) =>
  walkTree<RootContent>(tree, (node, parent, index) => {
    if (node.type === 'element') visit(node, parent as Root | Element, index);
  });

/** Every image of the article in document order, as written, with its line in the file. */
function findImages(tree: Root, data: ImageFileData, bodyLine: number, source: string): FoundImage[] {
  const found: FoundImage[] = [];
  eachElement(tree, (node, parent, index) => {
    if (node.tagName !== 'img') return;
    const start = node.position?.start;
    const url =
      (start?.offset !== undefined ? data.imageUrls?.get(start.offset) : undefined) ??
      String(node.properties.src ?? '');
    const tag =
      start?.offset !== undefined && node.position?.end.offset !== undefined
        ? source.slice(start.offset, node.position.end.offset)
        : '';
    const reference: ImageReference = {
      url,
      alt: String(node.properties.alt ?? ''),
      line: (start?.line ?? 1) + bodyLine - 1,
      ...layoutOf(node.properties, tag),
    };
    if (typeof node.properties.title === 'string') reference.title = node.properties.title;
    found.push({ parent, index, offset: start?.offset ?? 0, reference });
  });
  return found.sort((a, b) => a.offset - b.offset);
}

/** The files the images point to, or every problem of the article at once. */
function locate(found: readonly FoundImage[], context: ArticleImageContext): string[] {
  const errors: SsgError[] = [];
  const files: string[] = [];
  for (const { reference } of found) {
    const problem = altProblem(reference, context.file);
    const file = resolveImageFile(reference, context.file, context);
    if (problem) errors.push(problem);
    if (file instanceof SsgError) errors.push(file);
    else files.push(file);
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
  return files;
}

/** What the images of one article were made from, each file as it was read. */
function recordOf(
  shownByFile: ReadonlyMap<string, { shown: Shown; entry?: string }>,
  root: string,
): ArticleImageRecord {
  const files = [...shownByFile.keys()].sort();
  const named = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const sources = files.map((file) => ({ file: named(file), ...shownByFile.get(file)!.shown.source }));
  const shown = files.map((file) => {
    const { shown: image, entry } = shownByFile.get(file)!;
    return image.kind === 'plain' ? { file: named(file), path: image.path } : { file: named(file), entry };
  });
  return { sources, shown };
}

/**
 * The article image stage, inside the Markdown processor: each image an article shows is checked
 * (its file present in the articles or public folder, alt text, same origin), processed through
 * the image cache and replaced in the tree by its `<picture>` (the first eager, the rest lazy).
 * Runs only when the file carries an `imageContext`; every problem of the article at once.
 */
export function rehypeArticleImages() {
  return (tree: Root, file: VFile): Promise<void> | undefined => {
    const data = file.data as ImageFileData;
    const context = data.imageContext;
    if (!context) return undefined;
    const found = findImages(tree, data, context.bodyLine, String(file.value));
    if (found.length === 0) return undefined;
    const files = locate(found, context);
    const byFile = new Map<string, Promise<{ shown: Shown; entry?: string }>>();
    // A file that cannot be shown is named at the first line showing it: which article, where.
    const show = (source: string, reference: ImageReference) => {
      let result = byFile.get(source);
      if (!result) {
        const names = new Set<string>();
        const where = { file: context.file, line: reference.line };
        result = showFile(source, { ...context, cache: context.cache.recording(names) }).then(
          (shown) => ({ shown, entry: [...names][0] }),
          (error: unknown) => {
            throw error instanceof SsgError ? problemAt(error, where, error.file ?? reference.url) : error;
          },
        );
        byFile.set(source, result);
      }
      return result;
    };
    return settleAll(files.map((source, index) => show(source, found[index]!.reference))).then(async (results) => {
      found.forEach(({ parent, index, reference }, position) => {
        const image = results[position]!.shown;
        const alt = reference.alt === DECORATIVE_ALT ? '' : reference.alt;
        const common = {
          alt,
          eager: position === 0,
          title: reference.title,
          shownSize: reference.size,
          align: reference.align,
        };
        if (image.kind === 'plain') {
          parent.children[index] = plainImageElement(`/${image.path}`, image, common);
          return;
        }
        const picture = pictureOf(image.image);
        // Shown at the author's width: the browser picks the variant for that, not for the column.
        const width = reference.size && shownSize(picture, reference.size).width;
        const sizes = width ? `(max-width: ${width}px) 100vw, ${width}px` : context.sizes;
        parent.children[index] = pictureElement(picture, { ...common, sizes });
      });
      const settled = new Map<string, { shown: Shown; entry?: string }>();
      for (const [file, result] of byFile) settled.set(file, await result);
      data.images = recordOf(settled, context.root);
    });
  };
}

/** Every one of `work` done, or every problem they had as one report (anything unexpected first: it is a bug). */
async function settleAll<T>(work: ReadonlyArray<Promise<T>>): Promise<T[]> {
  const results = await Promise.allSettled(work);
  // Once each: two lines showing one file share its failure.
  const failures = [
    ...new Set(results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []))),
  ];
  if (failures.length > 0) throw mergeProblems(failures);
  return results.map((result) => (result as PromiseFulfilledResult<T>).value);
}

/** An image file's bytes; one that cannot be read is named. */
export async function readImageFile(file: string, shownAs: string): Promise<Uint8Array> {
  return readFile(file).catch((error: unknown) => unreadable(error, shownAs));
}

function unreadable(error: unknown, shownAs: string): never {
  throw catalogueError('ImageUnreadable', ['notRead', (error as Error).message], { file: shownAs }, { cause: error });
}

/**
 * An image file's bytes and how it was when read: its status taken from the open file before the
 * read, so a file changed meanwhile is seen as changed by the next build.
 */
async function readImageSource(file: string, shownAs: string): Promise<{ bytes: Uint8Array; source: SourceStamp }> {
  try {
    const handle = await open(file, 'r');
    try {
      const stat = await handle.stat();
      const bytes = await handle.readFile();
      return { bytes, source: stampOf(stat, bytes) };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return unreadable(error, shownAs);
  }
}

async function showFile(
  file: string,
  options: Omit<ArticleImageContext, 'cache'> & { cache: ImageProcessor },
): Promise<Shown> {
  const shownAs = path.relative(options.root, file);
  const { bytes, source } = await readImageSource(file, shownAs);
  if (isRasterPath(file)) return { kind: 'picture', image: await options.cache.process(bytes, shownAs), source };
  if (path.extname(file).toLowerCase() === '.svg')
    return { ...(await showAsIs(file, bytes, options.assetsDir)), source };
  throw catalogueError('ImageUnreadable', ['formatNotShown', path.extname(file) || path.basename(file)], {
    file: shownAs,
  });
}

/** Whether a file is as `stamp` says it was read: by its status when that is unchanged, else by its content. */
function sameSource(file: string, stamp: SourceStamp): boolean {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat?.isFile() !== true || stat.size !== stamp.size) return false;
  if (stat.mtimeMs === stamp.mtimeMs && stat.ctimeMs === stamp.ctimeMs && stat.ino === stamp.ino) return true;
  // Touched, copied or checked out again (a CI clone): the same file if it holds the same bytes.
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex') === stamp.sha256;
  } catch {
    return false;
  }
}

/**
 * Whether the files an article's images were made from (named from `root`) are as they were
 * then, and their processed images still kept in `imageDir`.
 */
export function imagesUnchanged(record: ArticleImageRecord, imageDir: string, root: string): boolean {
  const sourcesKept = record.sources.every(
    (source) => typeof source.sha256 === 'string' && sameSource(path.resolve(root, source.file), source),
  );
  return sourcesKept && record.shown.every(({ entry }) => entry === undefined || isFile(path.join(imageDir, entry)));
}
