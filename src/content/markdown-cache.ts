import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { importedPackages, packageVersions } from './package-versions.ts';
import { readEntry, writeEntrySync } from '../cache/store.ts';
import { generatorNodeModules, generatorRoot } from '../project.ts';
import type { ParsedParts } from './articles.ts';

/**
 * Each article file's front matter and converted body, by a hash of the file, kept in
 * `.cache/ssg/markdown.json` beside (never inside) the output. The key covers the Markdown
 * pipeline's own source and the versions of the packages it uses (and theirs), so an upgrade of
 * remark or micromark converts every article again and re-renders the pages showing them; the
 * file also records those versions and is discarded when they differ. Deleting or damaging the
 * file only costs one slower build.
 */
// The image settings and sizes too: processed images are part of the HTML kept.
const pipelineSource = ['content/markdown.ts', 'content/markdown-html.ts', 'content/markdown-alerts.ts', 'content/markdown-code.ts', 'content/markdown-plugins.ts', 'trees.ts', 'images/article-images.ts', 'images/picture.ts', 'images/process.ts', 'images/stage.ts']
  .map((file) => readFileSync(path.join(generatorRoot, 'src', file), 'utf8'))
  .join('\n');

let versions: Record<string, string> | undefined;
/** The pipeline's package versions now (read once per process). */
export const pipelineVersions = (): Record<string, string> => (versions ??= packageVersions(generatorNodeModules, importedPackages(pipelineSource)));

let pipeline: string | undefined;
const pipelineStamp = () => (pipeline ??= createHash('sha256').update(pipelineSource).update(JSON.stringify(pipelineVersions())).digest('hex').slice(0, 16));

/** The key of an article's text converted by this pipeline with the site's Markdown settings (their `markdownStamp`). */
export function contentKey(text: string, siteStamp = ''): string {
  return createHash('sha256').update(pipelineStamp()).update('\0').update(siteStamp).update('\0').update(text).digest('base64url');
}

/** What markdown.json holds. */
export interface StoredMarkdown {
  /** The installed versions of the pipeline's packages when the HTML was made. */
  versions: Record<string, string>;
  entries: Record<string, ParsedParts>;
}

export const markdownCacheFile = (dir: string) => path.join(dir, 'markdown.json');

export interface MarkdownCache {
  get(key: string): ParsedParts | undefined;
  set(key: string, parts: ParsedParts): void;
  /** Writes the entries used by this build (so stale ones drop out), atomically; never fails the build. */
  save(): Promise<void>;
  stats(): { hits: number; misses: number };
}

const isParts = (value: unknown): value is ParsedParts =>
  typeof value === 'object' && value !== null && typeof (value as ParsedParts).html === 'string' && typeof (value as ParsedParts).data === 'object' && (value as ParsedParts).data !== null;

/** The stored entries, if the file is intact and made by the packages installed now. */
async function readStored(file: string): Promise<Record<string, ParsedParts>> {
  const payload = await readEntry(file);
  if (!payload) return {};
  try {
    const stored = JSON.parse(payload.toString('utf8')) as Partial<StoredMarkdown>;
    if (JSON.stringify(stored.versions) !== JSON.stringify(pipelineVersions())) return {};
    return stored.entries && typeof stored.entries === 'object' ? stored.entries : {};
  } catch {
    return {};
  }
}

export async function openMarkdownCache(dir: string): Promise<MarkdownCache> {
  const file = markdownCacheFile(dir);
  const stored = await readStored(file);
  const used = new Map<string, ParsedParts>();
  let hits = 0;
  let misses = 0;
  return {
    get(key) {
      const parts = Object.hasOwn(stored, key) ? stored[key] : undefined;
      if (!isParts(parts)) {
        misses++;
        return undefined;
      }
      hits++;
      used.set(key, parts);
      return parts;
    },
    set(key, parts) {
      used.set(key, parts);
    },
    async save() {
      const next: StoredMarkdown = { versions: pipelineVersions(), entries: Object.fromEntries(used) };
      try {
        writeEntrySync(file, Buffer.from(JSON.stringify(next)));
      } catch {
        // Not kept: the next build converts these articles again.
      }
    },
    stats: () => ({ hits, misses }),
  };
}
