// The editor's files in the output: its page, its configuration, our start script and Decap CMS's
// prebuilt bundle, copied from node_modules at build time (never fetched from a CDN, never
// committed); and the headers its page needs, which differ from the public pages'.
import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { catalogueError } from '../errors/errors.ts';
import type { OutputFile } from '../output/output-file.ts';
import { generatorRoot, type Project } from '../project.ts';
import {
  editorConfig,
  EDITOR_PATH,
  DATA_FORMAT_PREFIX,
  ROOT_LIST_KEY,
  ARTICLE_FORMAT_PREFIX,
  type ArticleFolder,
  type EditorOptions,
} from './editor-config.ts';

const folder = EDITOR_PATH.replace(/^\//, '');

/**
 * A file of a package the editor needs, installed by the site (found from `root`, or beside ssg),
 * or the catalogue's error naming the package: ssg does not depend on them, so a site without the
 * editor installs none.
 */
export function resolvePackage(root: string, file: string): string {
  for (const from of [path.join(root, 'package.json'), import.meta.url]) {
    try {
      return createRequire(from).resolve(file);
    } catch {
      // Not found from there.
    }
  }
  throw catalogueError('EditorPackageMissing', [file.split('/')[0]!], { file: 'site/index.tsx' });
}

/** Decap CMS's bundle and the chunks it loads beside itself (source maps left out). */
const decapFiles = new Map<string, OutputFile[]>();
function decapBundle(root: string): OutputFile[] {
  const dist = path.join(path.dirname(resolvePackage(root, 'decap-cms/package.json')), 'dist');
  const known = decapFiles.get(dist);
  if (known) return known;
  const files = readdirSync(dist)
    .filter((name) => /(^|\.)decap-cms\.js$/.test(name) || name.endsWith('.wasm'))
    .map((name) => ({ path: `${folder}/${name}`, contents: readFileSync(path.join(dist, name)), plain: true }));
  decapFiles.set(dist, files);
  return files;
}

/** editor-client.ts with the YAML library it uses, bundled once a process. */
let clientScript: Uint8Array | undefined;
function editorScript(): Uint8Array {
  clientScript ??= esbuild.buildSync({
    entryPoints: [path.join(generatorRoot, 'src', 'runtime', 'editor-client.ts')],
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    target: 'es2020',
    logLevel: 'silent',
  }).outputFiles[0]!.contents;
  return clientScript;
}

/**
 * The editor's page: no inline script or style, kept out of search engines. `localeFolders`: the
 * folders of locales inside another collection's folder, which that collection does not list.
 */
function editorPage(title: string, localeFolders: readonly string[] = []): string {
  const folders = localeFolders.length
    ? ` data-locale-folders="${JSON.stringify(localeFolders).replace(/[&"<]/g, (c) => `&#${c.charCodeAt(0)};`)}"`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title.replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'))}</title>
<script src="${EDITOR_PATH}/editor.js" data-config="${EDITOR_PATH}/config.json" data-format-prefix="${DATA_FORMAT_PREFIX}" data-root-key="${ROOT_LIST_KEY}" data-article-prefix="${ARTICLE_FORMAT_PREFIX}"${folders}></script>
<script src="${EDITOR_PATH}/decap-cms.js"></script>
</head>
<body></body>
</html>
`;
}

/**
 * Whether a content collection's folder holds `.mdx` articles where the editor looks for entries
 * (`<slug>.mdx`, `<slug>/index.mdx`: two levels, as the collection's `path` says).
 */
export function holdsMdx(dir: string, depth = 2, skip: ReadonlySet<string> = new Set()): boolean {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  return entries.some((entry) =>
    entry.isDirectory()
      ? depth > 1 &&
        !entry.name.startsWith('.') &&
        !skip.has(entry.name) &&
        holdsMdx(path.join(dir, entry.name), depth - 1)
      : entry.isFile() && entry.name.endsWith('.mdx'),
  );
}

/** Every file of the editor, for the output. */
export function editorFiles(
  project: Project,
  options: EditorOptions,
  dataFiles: ReadonlyArray<{ name: string; file: string; schema: unknown }>,
  site: { baseUrl: string; name: string; warn: (message: string) => void; collections: readonly ArticleFolder[] },
): OutputFile[] {
  const collections = site.collections.map((collection) => ({
    ...collection,
    // The default locale's own: not those of the locales' folders inside it.
    mdx: holdsMdx(collection.dir, 2, new Set(collection.i18n?.locales ?? [])),
    mdxIn: (locale: string) => holdsMdx(path.join(collection.dir, locale)),
  }));
  const config = editorConfig(project, options, dataFiles, { ...site, collections });
  const localeFolders = collections.flatMap(({ dir, i18n }) =>
    (i18n?.locales ?? [])
      .filter((locale) => locale !== i18n?.defaultLocale)
      .map((locale) => path.relative(project.root, path.join(dir, locale)).split(path.sep).join('/')),
  );
  return [
    { path: `${folder}/index.html`, contents: editorPage(`Content editor | ${site.name}`, localeFolders) },
    { path: `${folder}/config.json`, contents: `${JSON.stringify(config, null, 2)}\n` },
    { path: `${folder}/editor.js`, contents: editorScript() },
    ...decapBundle(project.root),
  ];
}

/** The origins the editor talks to besides its own: the Git host's API and the sign-in proxy. */
export function editorOrigins(options: EditorOptions): string[] {
  const origins = ['https://api.github.com'];
  if (options.backend.oauthProxy) origins.push(new URL(options.backend.oauthProxy).origin);
  return origins;
}

/**
 * The editor page's Content-Security-Policy: what Decap CMS needs, found by reading Chromium's
 * violation reports. Its styles are injected at run time (emotion), so inline styles are allowed
 * here, never on the public pages; scripts stay the site's own.
 */
export function editorCsp(connect: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https://avatars.githubusercontent.com https://raw.githubusercontent.com",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    `connect-src 'self' blob: ${connect.join(' ')}`.trim(),
    "worker-src 'self' blob:",
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The editor's headers: the site's, with the editor's policy in place of the pages', kept out of
 * search engines, and a sign-in window that may talk back to the page that opened it.
 */
export function editorHeaders(
  siteHeaders: Record<string, string> | undefined,
  connect: readonly string[],
): Record<string, string> {
  const kept = Object.entries(siteHeaders ?? {}).filter(
    ([name]) => !/^(content-security-policy|cross-origin-opener-policy|x-robots-tag)$/i.test(name),
  );
  return {
    ...Object.fromEntries(kept),
    'Content-Security-Policy': editorCsp(connect),
    'Cross-Origin-Opener-Policy': 'same-origin-allow-popups',
    'X-Robots-Tag': 'noindex, nofollow',
  };
}
