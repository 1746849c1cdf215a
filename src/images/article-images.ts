import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Article } from '../content/articles.ts';
import { catalogueError, SsgError, SsgErrorList } from '../errors.ts';
import { parseMarkdownTree } from '../content/markdown.ts';
import type { ImageProcessor } from './image-cache.ts';
import { pictureHtml, pictureOf, plainImageHtml } from './picture.ts';
import { isRasterPath, type ProcessedImage } from './process.ts';

/** An image as written in an article's Markdown, with the line it is on (in the body). */
export interface ImageReference {
  url: string;
  alt: string;
  title?: string;
  line: number;
}

/**
 * Alt text of exactly `""` marks a decorative image, shown with an empty alt (screen readers skip
 * it). Markdown cannot tell an empty alt from a forgotten one, so an empty alt is refused.
 */
export const DECORATIVE_ALT = '""';

interface MdNode {
  type: string;
  url?: string;
  alt?: string | null;
  title?: string | null;
  identifier?: string;
  position?: { start: { line: number } };
  children?: MdNode[];
}

/** Every image of a Markdown body in document order, reference-style ones resolved (as the HTML has them). */
export function findImageReferences(markdown: string): ImageReference[] {
  const tree = parseMarkdownTree(markdown) as unknown as MdNode;
  const definitions = new Map<string, MdNode>();
  const found: MdNode[] = [];
  // Iterative walk: a deeply nested document cannot overflow the stack.
  const stack: MdNode[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'definition' && node.identifier !== undefined && !definitions.has(node.identifier)) definitions.set(node.identifier, node);
    if (node.type === 'image' || node.type === 'imageReference') found.push(node);
    if (node.children) for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
  const references: ImageReference[] = [];
  for (const node of found) {
    const target = node.type === 'image' ? node : definitions.get(node.identifier ?? '');
    if (!target) continue; // an undefined reference is shown as text, not as an image
    const reference: ImageReference = { url: target.url ?? '', alt: node.alt ?? '', line: node.position?.start.line ?? 1 };
    if (target.title) reference.title = target.title;
    references.push(reference);
  }
  return references;
}

/** How many lines of the file come before its body (the front matter and its fences). */
export function bodyLineOffset(source: string): number {
  const lines = source.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (!/^---[ \t]*$/.test(lines[0] ?? '')) return 0;
  const closing = lines.findIndex((line, index) => index > 0 && /^---[ \t]*$/.test(line));
  return closing === -1 ? 0 : closing + 1;
}

export interface ImageFolders {
  root: string;
  /** Relative image paths must stay inside this folder (the articles folder). */
  articlesDir: string;
  /** Paths starting with `/` are files of the public folder. */
  publicDir: string;
}

/** The file an image reference points to, or the error saying why it cannot be shown. */
export function resolveImageFile(reference: ImageReference, articleFile: string, folders: ImageFolders): string | SsgError {
  const where = { file: articleFile, line: reference.line };
  const url = reference.url.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//') || url.startsWith('\\\\')) {
    return catalogueError('ImageRemote', [url], where);
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.replace(/[?#].*$/s, ''));
  } catch {
    return catalogueError('ImageMissing', ['invalidPath', url], where);
  }
  if (decoded === '' || decoded.includes('\0')) return catalogueError('ImageMissing', ['noFileName', url], where);
  const [base, file] = decoded.startsWith('/')
    ? [folders.publicDir, path.join(folders.publicDir, decoded)]
    : [folders.articlesDir, path.resolve(folders.root, path.dirname(articleFile), decoded)];
  if (file !== base && !file.startsWith(base + path.sep)) {
    return catalogueError('ImageMissing', ['outside', url, path.relative(folders.root, base)], where);
  }
  if (!isFile(file)) return catalogueError('ImageMissing', ['notFound', url, path.relative(folders.root, file)], where);
  return file;
}

/** Whether a regular file is there; a path through a file (ENOTDIR) or an unreadable folder is not. */
function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function altProblem(reference: ImageReference, articleFile: string): SsgError | undefined {
  if (reference.alt.trim() !== '') return undefined;
  return catalogueError('ImageAltMissing', [reference.url], { file: articleFile, line: reference.line });
}

/** What the build learns of one source file: processed (raster) or shown as it is (SVG) with its size. */
type Shown = { kind: 'picture'; image: ProcessedImage } | { kind: 'plain'; path: string; contents: Uint8Array; width?: number; height?: number };

async function showAsIs(file: string, bytes: Uint8Array, assetsDir: string): Promise<Shown> {
  const metadata = await sharp(bytes).metadata().catch(() => undefined);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 10);
  const base = path.basename(file, path.extname(file)).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'image';
  return { kind: 'plain', path: `${assetsDir}/${base}-${hash}${path.extname(file).toLowerCase()}`, contents: bytes, width: metadata?.width, height: metadata?.height };
}

/** The HTML each article had before its images were replaced: a second pass starts from it. */
const sourceHtmlOf = new WeakMap<Article, string>();

/** An article's HTML as the Markdown stage made it, before any image was replaced. */
export function markdownHtml(article: Article): string {
  return sourceHtmlOf.get(article) ?? article.html;
}

const IMG = /<img\b[^>]*>/g;

export interface ArticleImageOptions extends ImageFolders {
  cache: ImageProcessor;
  /** The folder of the output the variants go in (relative to the output root). */
  assetsDir: string;
  /** The `sizes` attribute of article images: how wide the article column is shown. */
  sizes: string;
}

interface Located {
  article: Article;
  references: ImageReference[];
  files: string[];
}

/** Checks every image of the articles that show any, collecting all problems before failing. */
function locateImages(articles: readonly Article[], options: ArticleImageOptions): Located[] {
  const errors: SsgError[] = [];
  const located: Located[] = [];
  for (const article of articles) {
    const html = markdownHtml(article);
    if (!html.includes('<img')) continue;
    let offset = 0;
    try {
      offset = bodyLineOffset(readFileSync(path.resolve(options.root, article.file), 'utf8'));
    } catch {
      // The source went away since it was read: lines are counted from the body.
    }
    const references = findImageReferences(article.markdown).map((reference) => ({ ...reference, line: reference.line + offset }));
    const files: string[] = [];
    for (const reference of references) {
      const problem = altProblem(reference, article.file);
      const file = resolveImageFile(reference, article.file, options);
      if (problem) errors.push(problem);
      if (file instanceof SsgError) errors.push(file);
      else files.push(file);
    }
    located.push({ article, references, files });
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
  return located;
}

async function showFile(file: string, options: ArticleImageOptions): Promise<Shown> {
  const shownAs = path.relative(options.root, file);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw catalogueError('ImageUnreadable', ['notRead', (error as Error).message], { file: shownAs }, { cause: error });
  }
  if (isRasterPath(file)) return { kind: 'picture', image: await options.cache.process(bytes, shownAs) };
  if (path.extname(file).toLowerCase() === '.svg') return showAsIs(file, bytes, options.assetsDir);
  throw catalogueError('ImageUnreadable', ['formatNotShown', path.extname(file) || path.basename(file)], { file: shownAs });
}

/** The article's HTML with each `<img>` the Markdown made replaced by its processed markup. */
function rewriteHtml(html: string, references: readonly ImageReference[], shown: readonly Shown[], sizes: string): string {
  let index = 0;
  return html.replace(IMG, (tag) => {
    const reference = references[index];
    const image = shown[index];
    index++;
    if (!reference || !image) return tag; // cannot happen: the HTML and the tree come from one Markdown
    const alt = reference.alt === DECORATIVE_ALT ? '' : reference.alt;
    const common = { alt, eager: index === 1, title: reference.title };
    return image.kind === 'picture' ? pictureHtml(pictureOf(image.image), { ...common, sizes }) : plainImageHtml(`/${image.path}`, image, common);
  });
}

/** What processing articles' images made: the files to write, and the source files read. */
export interface ArticleImages {
  files: Array<{ path: string; contents: Uint8Array }>;
  /** Every image file the articles show, absolute: dev mode processes them again when one changes. */
  sources: string[];
}

/**
 * Build hook for article images (issue 12): checks every image the articles show (present, alt
 * text, same origin), processes raster ones through the cache, and rewrites each article's HTML
 * to `<picture>` markup. Throws every problem at once.
 */
export async function processArticleImages(articles: readonly Article[], options: ArticleImageOptions): Promise<ArticleImages> {
  const located = locateImages(articles, options);
  const byFile = new Map<string, Promise<Shown>>();
  const show = (file: string) => {
    let shown = byFile.get(file);
    if (!shown) byFile.set(file, (shown = showFile(file, options)));
    return shown;
  };
  const results = await Promise.allSettled(located.map((item) => Promise.all(item.files.map(show))));
  const errors = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  const expected = [...new Set(errors)].filter((error): error is SsgError => error instanceof SsgError);
  if (expected.length !== errors.length && errors.length > 0) throw errors.find((error) => !(error instanceof SsgError));
  if (expected.length === 1) throw expected[0];
  if (expected.length > 1) throw new SsgErrorList(expected);

  const files = new Map<string, Uint8Array>();
  located.forEach((item, position) => {
    const shown = (results[position] as PromiseFulfilledResult<Shown[]>).value;
    for (const image of shown) {
      if (image.kind === 'plain') files.set(image.path, image.contents);
      else for (const variant of image.image.variants) files.set(variant.path, variant.contents);
    }
    const source = markdownHtml(item.article);
    sourceHtmlOf.set(item.article, source);
    item.article.html = rewriteHtml(source, item.references, shown, options.sizes);
  });
  return { files: [...files].map(([filePath, contents]) => ({ path: filePath, contents })), sources: [...byFile.keys()].sort() };
}
