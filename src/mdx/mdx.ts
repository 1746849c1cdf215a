// An MDX article: Markdown that imports components. It is compiled with the steps of a Markdown
// article (articleSteps), bundled with what it imports, and rendered here, in the helper, to the
// HTML a Markdown article has: the rest of the build (lists, feeds, links, caches) sees no
// difference. Its islands come out complete, as the copy buttons of code blocks do, and the page
// that shows the article loads their scripts.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CompileOptions } from '@mdx-js/mdx';
import * as esbuild from 'esbuild';
import { createElement, type ComponentType } from 'react';
import { VFile } from 'vfile';
import { catalogueError, isExpectedError } from '../errors/errors.ts';
import { externalPackagesByPath, fromEsbuildFailure, ssgAlias } from '../base/esbuild-plugins.ts';
import { stampOf, type ArticleImageRecord } from '../images/article-images.ts';
import { renderPage } from '../runtime/render-page.tsx';
import { generatorModulePaths, generatorRoot } from '../project.ts';
import { removeFilesOfEndedProcesses } from '../cache/store.ts';
import { isInside } from '../output/output-target.ts';

export const MDX_EXTENSION = /\.mdx$/i;

const generatorSource = path.join(generatorRoot, 'src');

/** What compiling an MDX body left: the module's code, and the file with what the steps noted. */
async function compiled(file: VFile, steps: MdxSteps, bodyLine: number): Promise<string> {
  // Loaded with the first MDX article: a site without one never needs the package installed.
  const { compile } = await import('@mdx-js/mdx').catch((error: unknown) => {
    throw catalogueError('MdxCompilerMissing', [(error as Error).message], { file: file.path });
  });
  try {
    return String(await compile(file, { ...steps, jsxImportSource: 'react', development: false }));
  } catch (error) {
    if (isExpectedError(error)) throw error;
    const place = error as { line?: number; column?: number; reason?: string; message?: string };
    const line = typeof place.line === 'number' ? place.line + bodyLine - 1 : undefined;
    // The reason names places in the body (`16:1-16:20`): in the file they are lines further down.
    const reason = (place.reason ?? String(place.message ?? error)).replace(
      /\((\d+):\d+(?:-\d+:\d+)?\)/g,
      (_, at: string) => `(line ${Number(at) + bodyLine - 1})`,
    );
    throw catalogueError('MdxInvalid', [reason], {
      file: file.path,
      ...(line ? { line } : {}),
    });
  }
}

type MdxSteps = Pick<CompileOptions, 'remarkPlugins' | 'rehypePlugins' | 'remarkRehypeOptions'>;

/**
 * esbuild's places in the compiled body, moved to the MDX lines that hold the same import (MDX
 * keeps import statements as written).
 */
function placedInBody(error: unknown, file: VFile, body: string, root: string, bodyLine: number): unknown {
  const lines = body.split('\n');
  for (const message of (error as { errors?: esbuild.Message[] }).errors ?? []) {
    const location = message.location;
    if (!location || path.resolve(root, location.file.replace(/^mdx:/, '')) !== path.resolve(root, file.path)) continue;
    location.file = file.path;
    const specifier = /^Could not resolve "([^"]+)"/.exec(message.text)?.[1];
    const at = lines.findIndex((line) =>
      specifier ? line.includes(`'${specifier}'`) || line.includes(`"${specifier}"`) : line === location.lineText,
    );
    if (at >= 0) Object.assign(location, { line: at + bodyLine, lineText: lines[at] });
  }
  return error;
}

/** The article being bundled: the entry's code and folder (one at a time per process). */
let current: { code: string; file: string } | undefined;
const contexts = new Map<string, Promise<esbuild.BuildContext<{ write: false; metafile: true }>>>();

/**
 * One esbuild context per site in a process, rebuilt for each article: the files its articles
 * import (the site's components, the generator's `island`) are parsed once, not once per article.
 */
function contextFor(root: string) {
  let context = contexts.get(root);
  if (!context) {
    const entry: esbuild.Plugin = {
      name: 'mdx-entry',
      setup(build) {
        build.onResolve({ filter: /^ssg-mdx-entry$/ }, () => ({ path: current!.file, namespace: 'mdx' }));
        build.onLoad({ filter: /.*/, namespace: 'mdx' }, () => ({
          contents: current!.code,
          resolveDir: path.dirname(current!.file),
          loader: 'jsx',
        }));
      },
    };
    context = esbuild.context({
      entryPoints: ['ssg-mdx-entry'],
      absWorkingDir: root,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      jsx: 'automatic',
      // Packages stay imports, pinned to the files the generator's renderer loads (a site without
      // its own node_modules, as a test's, finds them where the generator is).
      nodePaths: generatorModulePaths,
      write: false,
      metafile: true,
      // A component's stack (--verbose) names its own file and line, not the bundle's.
      sourcemap: 'inline',
      sourceRoot: pathToFileURL(root + path.sep).href,
      logLevel: 'silent',
      plugins: [entry, ssgAlias('server'), externalPackagesByPath({ remember: true })],
    });
    contexts.set(root, context);
  }
  return context;
}

/** The compiled body with what it imports, as one module; React and other packages stay imports. */
async function bundled(code: string, file: VFile, body: string, root: string, bodyLine: number) {
  const absolute = path.resolve(root, file.path);
  current = { code, file: absolute };
  try {
    const result = await (await contextFor(root)).rebuild();
    const sources = Object.keys(result.metafile.inputs)
      .filter((input) => !input.startsWith('mdx:'))
      .map((input) => path.resolve(root, input))
      // The generator's own code is in every key already (its stamp).
      .filter((input) => !input.includes(`${path.sep}node_modules${path.sep}`) && !isInside(generatorSource, input));
    // The packages it imports are not bundled: the site's lock file stands for their versions.
    const lock = path.join(root, 'package-lock.json');
    return { code: result.outputFiles[0]!.text, sources: existsSync(lock) ? [...sources, lock] : sources };
  } catch (error) {
    throw fromEsbuildFailure(placedInBody(error, file, body, root, bodyLine), 'MdxImportFailed', root);
  } finally {
    current = undefined;
  }
}

let loaded = 0;
const MODULE_FILE = /^mdx-(\d+)-\d+\.mjs$/;

/**
 * Imports a bundled article from a file of its own in the site's cache folder, removed once
 * imported.
 */
async function imported(code: string, cacheDir: string, article: string): Promise<ComponentType> {
  mkdirSync(cacheDir, { recursive: true });
  if (loaded === 0) {
    // Those of helpers stopped while importing one (a time budget, a component calling exit).
    removeFilesOfEndedProcesses(cacheDir, MODULE_FILE);
    // A component's stack (--verbose) at its own file and line: the bundles carry source maps.
    process.setSourceMapsEnabled(true);
  }
  const file = path.join(cacheDir, `mdx-${process.pid}-${loaded++}.mjs`);
  writeFileSync(file, code);
  try {
    return ((await import(pathToFileURL(file).href)) as { default: ComponentType }).default;
  } catch (error) {
    // The module's own code threw as it loaded.
    throw catalogueError(
      'MdxRenderFailed',
      [error instanceof Error ? error.message : String(error)],
      { file: article },
      { cause: error },
    );
  } finally {
    rmSync(file, { force: true });
  }
}

/** The stamp of a file the article imports, as an image source's: it is converted again when one changes. */
function stamped(file: string, root: string): ArticleImageRecord['sources'][number] {
  return { file: path.relative(root, file), ...stampOf(statSync(file), readFileSync(file)) };
}

/** The files an MDX article imports, added to what its images were made from. */
export function withSources(
  images: ArticleImageRecord | undefined,
  sources: readonly string[],
  root: string,
): ArticleImageRecord | undefined {
  if (sources.length === 0) return images;
  return {
    sources: [...(images?.sources ?? []), ...sources.map((file) => stamped(file, root))],
    shown: images?.shown ?? [],
  };
}

/**
 * The start of the uids of an article's islands, letters made from its file: two articles shown
 * on one page number their islands apart (and React's ids in them differ).
 */
function islandPrefix(file: string): string {
  const digest = createHash('sha256').update(file).digest('hex').slice(0, 8);
  return `m${digest.replace(/\d/g, (digit) => 'ghijklmnop'[Number(digit)]!)}`;
}

/** Renders the article's component to HTML, its islands complete; what it throws names the article. */
function rendered(Content: ComponentType, file: string): string {
  try {
    return renderPage(createElement(Content), { uidPrefix: islandPrefix(file), staticMarkup: true }).html;
  } catch (error) {
    throw catalogueError(
      'MdxRenderFailed',
      [error instanceof Error ? error.message : String(error)],
      { file },
      { cause: error },
    );
  }
}

/**
 * An MDX body to HTML, with the steps of a Markdown article (`steps`), and the files it imported
 * (absolute). `file` is the VFile the steps read (its path and image context).
 */
export async function convertMdx(
  file: VFile,
  steps: MdxSteps,
  where: { root: string; cacheDir: string; bodyLine: number },
): Promise<{ html: string; sources: string[] }> {
  const body = String(file.value);
  const code = await compiled(file, steps, where.bodyLine);
  const bundle = await bundled(code, file, body, where.root, where.bodyLine);
  const Content = await imported(bundle.code, where.cacheDir, file.path);
  return { html: rendered(Content, file.path), sources: bundle.sources };
}

/** Ends this process's esbuild service: a helper calls it before it exits. */
export function stopBundling(): void {
  if (contexts.size > 0) void esbuild.stop();
}
