import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generatorRoot } from './project.ts';
import type { ParsedParts } from './articles.ts';

/**
 * Each article file's front matter and converted body, by a hash of the file, kept in
 * `.cache/ssg/markdown.json` beside (never inside) the output. The key covers the Markdown
 * pipeline's own source, so changing the pipeline empties the cache; deleting the file only costs
 * one slower build.
 */
const PIPELINE = createHash('sha256')
  .update(readFileSync(path.join(generatorRoot, 'src', 'markdown.ts')))
  .digest('hex')
  .slice(0, 16);

export function contentKey(text: string): string {
  return createHash('sha256').update(PIPELINE).update('\0').update(text).digest('base64url');
}

export interface MarkdownCache {
  get(key: string): ParsedParts | undefined;
  set(key: string, parts: ParsedParts): void;
  /** Writes the entries used by this build (so stale ones drop out), atomically. */
  save(): Promise<void>;
  stats(): { hits: number; misses: number };
}

export async function openMarkdownCache(dir: string): Promise<MarkdownCache> {
  const file = path.join(dir, 'markdown.json');
  let stored: Record<string, ParsedParts> = {};
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) stored = parsed as Record<string, ParsedParts>;
  } catch {
    // Missing or damaged: start empty.
  }
  const used = new Map<string, ParsedParts>();
  let hits = 0;
  let misses = 0;
  return {
    get(key) {
      const parts = stored[key];
      if (parts === undefined || typeof parts.html !== 'string' || !parts.data) {
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
      await mkdir(dir, { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(Object.fromEntries(used)));
      await rename(temporary, file);
    },
    stats: () => ({ hits, misses }),
  };
}
