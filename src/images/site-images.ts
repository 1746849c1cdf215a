import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { catalogueError, SsgError, SsgErrorList } from '../errors/errors.ts';
import type { OutputFile } from '../output/output-file.ts';
import type { Project } from '../project.ts';
import { openImageCache, type ImageProcessor } from './image-cache.ts';
import { pictureOf, type PictureData } from './picture.ts';
import { DEFAULT_IMAGE_SETTINGS, isRasterPath } from './process.ts';

/** The key of the processed images in the data pages receive (a data file of that name is refused). */
const IMAGES_DATA_KEY = 'images';

/**
 * Processes the raster images of the public folder that the site names (`images(data)` in its
 * definition: team photos, the share image), through the same cache as article images. Returns
 * the pictures by their public path and the files to write; SVG and other files are left alone.
 */
export async function processSiteImages(
  project: Project,
  publicPaths: readonly string[],
  assetsDir: string,
  // The build's cache, so that its pruning knows these entries are in use.
  cache: ImageProcessor = openImageCache({ cacheDir: project.cacheDir, settings: DEFAULT_IMAGE_SETTINGS, assetsDir }),
) {
  const pictures: Record<string, PictureData> = {};
  const files: OutputFile[] = [];
  const errors: SsgError[] = [];
  for (const publicPath of [...new Set(publicPaths)].filter(isRasterPath)) {
    const file = path.join(project.publicDir, publicPath);
    const shownAs = path.relative(project.root, file);
    if (!publicPath.startsWith('/') || !file.startsWith(project.publicDir + path.sep)) {
      errors.push(catalogueError('ImageMissing', ['notInPublicFolder', publicPath], { file: shownAs }));
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = await readFile(file);
    } catch {
      errors.push(catalogueError('ImageMissing', ['notFound', publicPath, shownAs], { file: shownAs }));
      continue;
    }
    try {
      const image = await cache.process(bytes, shownAs);
      pictures[publicPath] = pictureOf(image);
      for (const variant of image.variants) files.push({ path: variant.path, contents: variant.contents });
    } catch (error) {
      if (error instanceof SsgError) errors.push(error);
      else throw error;
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
  return { pictures, files };
}

/**
 * The site's images processed and handed to pages as `data.images` (by public path), so a page
 * reading them is rendered again when one changes.
 */
export async function addSiteImages(
  project: Project,
  site: { images?: (data: never) => string[] },
  data: Record<string, unknown>,
  assetsDir: string,
  cache?: ImageProcessor,
): Promise<OutputFile[]> {
  if (!site.images) return [];
  if (Object.hasOwn(data, IMAGES_DATA_KEY)) {
    throw catalogueError('ImageDataClash', [IMAGES_DATA_KEY], { file: `content/${IMAGES_DATA_KEY}.yaml` });
  }
  const { pictures, files } = await processSiteImages(project, site.images(data as never), assetsDir, cache);
  data[IMAGES_DATA_KEY] = pictures;
  return files;
}
