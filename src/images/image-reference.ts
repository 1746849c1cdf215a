// An image as an article writes it: its address, alt text and layout, and the file it points to,
// or why it cannot be shown (remote, outside the folders, missing, without alt text).
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Properties } from 'hast';
import { catalogueError, type SsgError } from '../errors/errors.ts';
import type { ImageAlign } from './picture.ts';

/** An image as written in an article's Markdown, with the line it is on (in the body). */
export interface ImageReference {
  url: string;
  alt: string;
  title?: string;
  line: number;
  /** The size an `<img>` written as HTML asks for, in CSS pixels. */
  size?: { width?: number; height?: number };
  align?: ImageAlign;
}

/**
 * A `width` or `height` attribute as HTML reads it (its rules for non-negative integers): the
 * digits at its start, after spaces and a `+`; `1e3` is 1. Nothing when none, or zero.
 */
function pixels(written: string | undefined): number | undefined {
  const digits = /^[\t\n\f\r ]*\+?(\d{1,6})/.exec(written ?? '')?.[1];
  return digits && Number(digits) > 0 ? Number(digits) : undefined;
}

/** An attribute's value as written in the tag's source (the parsed tree has made `1e3` a number). */
function writtenAttribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`[\\s/]${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

const ALIGNS: Record<string, ImageAlign> = { left: 'left', right: 'right', center: 'center', middle: 'center' };

/** What the author asked of an image's layout in HTML (`width`, `height`, `align`), read from its tag as written. */
export function layoutOf(properties: Properties, tag: string): Pick<ImageReference, 'size' | 'align'> {
  if (properties.width === undefined && properties.height === undefined && properties.align === undefined) return {};
  const width = pixels(writtenAttribute(tag, 'width'));
  const height = pixels(writtenAttribute(tag, 'height'));
  const align =
    ALIGNS[
      String(properties.align ?? '')
        .trim()
        .toLowerCase()
    ];
  return {
    ...(width || height ? { size: { ...(width ? { width } : {}), ...(height ? { height } : {}) } } : {}),
    ...(align ? { align } : {}),
  };
}

/**
 * Alt text of exactly `""` marks a decorative image, shown with an empty alt (screen readers skip
 * it). Markdown cannot tell an empty alt from a forgotten one, so an empty alt is refused.
 */
export const DECORATIVE_ALT = '""';

export interface ImageFolders {
  root: string;
  /** Relative image paths must stay inside this folder (the articles folder). */
  contentDir: string;
  /** Paths starting with `/` are files of the public folder. */
  publicDir: string;
}

/** The file an image reference points to, or the error saying why it cannot be shown. */
export function resolveImageFile(
  reference: ImageReference,
  articleFile: string,
  folders: ImageFolders,
): string | SsgError {
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
    : [folders.contentDir, path.resolve(folders.root, path.dirname(articleFile), decoded)];
  if (!within(file, base)) {
    return catalogueError('ImageMissing', ['outside', url, path.relative(folders.root, base)], where);
  }
  if (!isFile(file)) return catalogueError('ImageMissing', ['notFound', url, path.relative(folders.root, file)], where);
  // A link inside the folder to a file outside the project would publish that file.
  if (!within(realpathSync(file), realpathSync(folders.root)))
    return catalogueError('ImageMissing', ['outside', url, path.relative(folders.root, base)], where);
  return file;
}

const within = (file: string, dir: string) => file === dir || file.startsWith(dir + path.sep);

/** Whether a regular file is there; a path through a file (ENOTDIR) or an unreadable folder is not. */
export function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** An image with no alt text: refused, as Markdown cannot tell an empty alt from a forgotten one. */
export function altProblem(reference: ImageReference, articleFile: string): SsgError | undefined {
  if (reference.alt.trim() !== '') return undefined;
  return catalogueError('ImageAltMissing', [reference.url], { file: articleFile, line: reference.line });
}
