// The pipeline's first stage: the template, the data files, both bundles and the articles, read
// afresh on a first run (every build) or, after a change, only what the changed files affect.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ClientBundle } from '../render/bundles.ts';
import type { ServerBundle } from '../bundle/bundle-server.ts';
import { readDataFiles, type DataFile } from '../content/data.ts';
import { listFiles } from '../output/output-file.ts';
import type { Project } from '../project.ts';
import { loadTemplate, type DocumentShell } from '../render/template.ts';
import { articleInputs, type ArticleInputs } from './article-inputs.ts';
import { relative, statIsFile } from './changes.ts';
import type { ArticleStageSetup, Bundler, ChangeKind, Inputs, RunOptions, State } from './pipeline-types.ts';
import { siteSettings, type SiteSettings } from './site-settings.ts';
import { inOrder } from '../base/in-order.ts';

/** What the stage reads with: the strategy's bundler, and how the articles are read and converted. */
export interface InputSetup {
  bundler: Bundler;
  articles: ArticleStageSetup;
}

/** The data files after the changed ones were read again (or dropped). */
function updateDataSources(
  project: Project,
  previous: Map<string, DataFile>,
  files: readonly string[],
): Map<string, DataFile> {
  const sources = new Map(previous);
  // A data collection's files are read with the site's settings, from its folder.
  for (const file of files.filter((one) => path.dirname(one) === project.contentDir)) {
    const name = path.basename(file).replace(/\.ya?ml$/i, '');
    if (statIsFile(file)) sources.set(name, { name, file: relative(project, file), text: readFileSync(file, 'utf8') });
    else sources.delete(name);
  }
  return sources;
}

function changedDataNames(before: Record<string, unknown>, after: Record<string, unknown>): Set<string> {
  const names = new Set<string>();
  if (before === after) return names;
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[name]) !== JSON.stringify(after[name])) names.add(name);
  }
  return names;
}

/** The scripts the pages load, by their content-hashed names. */
const scriptNames = (client: ClientBundle) =>
  client.assets
    .map((asset) => asset.path)
    .filter((name) => !name.endsWith('.css'))
    .sort()
    .join('\n');

/**
 * Whether a change to the site's code changed what it compiles to: a file the bundles do not
 * import (an editor's temporary file, a note) or a save that changed nothing renders nothing again.
 */
const codeCompiledAnew = (previous: State, server: ServerBundle, client: ClientBundle) =>
  Buffer.compare(previous.server.code, server.code) !== 0 || scriptNames(previous.client) !== scriptNames(client);

type Sources = [ArticleInputs, DocumentShell, Map<string, DataFile>, ServerBundle, ClientBundle];

/**
 * The articles, template, data files and bundles: everything on a first run, after that only what
 * the changed files affect. All start at once; when several fail, the site code's error is
 * reported, else the first in this order, whatever finished first.
 */
async function readSources(
  project: Project,
  setup: InputSetup,
  previous: State | undefined,
  changes: ReadonlyMap<ChangeKind, readonly string[]>,
  options: RunOptions,
): Promise<Sources> {
  const changed = (kind: ChangeKind) => !previous || changes.has(kind);
  const same = <T>(value: T) => Promise.resolve(value);
  const { bundler } = setup;
  const code = changed('code');
  const style = changed('style');
  const server = code ? bundler.server() : same(previous!.server);
  server.catch(() => {}); // reported in order below
  const articles = articleInputs(project, setup.articles, previous, changes, server, options);
  const data = previous
    ? same(
        changed('data') ? updateDataSources(project, previous.dataSources, changes.get('data')!) : previous.dataSources,
      )
    : readDataFiles(project.root, project.contentDir).then((files) => new Map(files.map((file) => [file.name, file])));
  try {
    return await inOrder<Sources>([
      articles,
      changed('template') ? loadTemplate(project.template, relative(project, project.template)) : same(previous!.shell),
      data,
      server,
      code || style ? bundler.client({ code, style }) : same(previous!.client),
    ]);
  } catch (error) {
    await (await articles.catch(() => undefined))?.conversion.close();
    // Without the site's code the articles were read without its collections and locales, so
    // what they failed with (two translations of one name) is no news: the code's error is.
    const codeError = await server.then(
      () => undefined,
      (failed: unknown) => failed,
    );
    throw codeError ?? error;
  }
}

/** The pipeline's first stage: the inputs of a run and what changed in them since `previous`. */
export async function readInputs(
  project: Project,
  setup: InputSetup,
  previous: State | undefined,
  changes: ReadonlyMap<ChangeKind, readonly string[]>,
  options: RunOptions,
): Promise<Inputs> {
  const [articles, shell, dataSources, server, client] = await readSources(project, setup, previous, changes, options);
  try {
    const changed = (kind: ChangeKind) => !previous || changes.has(kind);
    // A public file may be an image the pages receive processed (data.images): the data is made again.
    const settings: SiteSettings =
      changed('data') || changed('code') || changed('public')
        ? await siteSettings(project, server.module, [...dataSources.values()], articles.collections, {
            ...options,
            siteImages: setup.articles.images.siteImages,
          })
        : previous!.settings;
    const publicFiles = changed('public') ? new Set(await listFiles(project.publicDir)) : previous!.publicFiles;
    const changedData = previous ? changedDataNames(previous.settings.data, settings.data) : new Set<string>();
    const renderAll =
      !previous ||
      (changed('code') && codeCompiledAnew(previous, server, client)) ||
      changed('template') ||
      changedData.has(project.siteConfigName) ||
      settings.baseUrl !== previous.settings.baseUrl;
    const styleChanged = previous !== undefined && changes.has('style');
    return {
      ...articles,
      shell,
      server,
      client,
      dataSources,
      settings,
      publicFiles,
      renderAll,
      styleChanged,
      changedData,
      publicChanged: changed('public'),
    };
  } catch (error) {
    await articles.conversion.close();
    throw error;
  }
}
