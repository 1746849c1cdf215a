import path from 'node:path';
import { catalogueError } from '../errors/errors.ts';
import type { Article } from './article.ts';
import { keyAt, keyLocation } from './frontmatter.ts';

/** Image files a share card can be: what social networks show (no SVG). */
export const SHARE_IMAGE_FILE = /\.(png|jpe?g|webp|avif|gif)$/i;

/**
 * Where an article's `image` may be: the project root, its content folder (`content`) and its
 * public folder (`site/public`, where `/…` points); relative ones are from the root.
 */
export interface ShareImageFolders {
  root: string;
  publicDir: string;
  contentDir?: string;
}

/** The front matter's share image fields, as the schema let them through. */
interface ShareImageFields {
  image?: string;
  imageAlt?: string;
}

/**
 * The article's own share image: `image` (a path from the article's folder, or from the public
 * folder when it starts with `/`) and `imageAlt`. The path must stay in the project; whether the
 * file is there and is an image is checked where the card is made from it (the site's files()),
 * which runs again whenever the file changes, in dev too.
 */
export function shareImageOf(
  file: string,
  fields: ShareImageFields,
  title: string,
  text: string,
  options: { folders?: ShareImageFolders; warn: (message: string) => void },
): { image?: Article['image'] } {
  const where = (key: string) => keyAt(file, text, key);
  if (fields.image === undefined) {
    if (fields.imageAlt !== undefined)
      options.warn(
        `${where('imageAlt')}: imageAlt is not read without image; give the image it describes, or remove the line.`,
      );
    return {};
  }
  const written = fields.image.trim();
  const root = path.resolve(options.folders?.root ?? '.');
  const publicDir = path.resolve(root, options.folders?.publicDir ?? path.join('site', 'public'));
  const contentDir = path.resolve(root, options.folders?.contentDir ?? 'content');
  const base = written.startsWith('/') ? publicDir : path.join(root, path.dirname(file));
  const absolute = path.resolve(base, written.replace(/^\/+/, ''));
  // Only where the build watches (content and the public folder): a card made from a file
  // elsewhere would never be made again when the file changes.
  if (!isWithin(contentDir, absolute) && !isWithin(publicDir, absolute)) {
    throw catalogueError(
      'FrontMatterFieldInvalid',
      [
        `image "${written}" is outside the content folder and site/public; put the image beside the article or in site/public.`,
      ],
      keyLocation(file, text, 'image'),
    );
  }
  if (fields.imageAlt === undefined)
    options.warn(
      `${where('image')}: image has no imageAlt; say what it shows for readers who cannot see it (the title is used until then).`,
    );
  const relative = path.relative(root, absolute);
  return { image: Object.freeze({ file: relative.split(path.sep).join('/'), alt: fields.imageAlt?.trim() ?? title }) };
}

/** Whether `file` is inside `dir` (not `dir` itself). */
function isWithin(dir: string, file: string): boolean {
  const inside = path.relative(dir, file);
  return inside !== '' && !inside.startsWith('..') && !path.isAbsolute(inside);
}
