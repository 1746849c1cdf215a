// The editor's start (ssg's /admin): loaded before Decap CMS's bundle, it stops the automatic
// start, then registers the articles' and data files' formats and starts the editor with the configuration
// the build made. A file of its own, not an inline script: the editor's Content-Security-Policy
// allows scripts of the site only.
import { articleFormat, dataFormat, type FieldConfig, type Formatter } from './editor-formats.ts';

interface DecapCms {
  registerCustomFormat(name: string, extension: string, formatter: Formatter): void;
  getBackend(name: string): { init: (...args: unknown[]) => FolderLister } | undefined;
  init(options: { config: unknown }): void;
}

/** What Decap's backends (GitHub's, the local one in dev) list a folder collection with. */
interface FolderLister {
  entriesByFolder?: (folder: string, extension: string, depth: number) => Promise<{ file: { path: string } }[]>;
  allEntriesByFolder?: (folder: string, ...rest: unknown[]) => Promise<{ file: { path: string } }[]>;
}

interface CollectionConfig {
  format?: string;
  extension?: string;
  fields?: FieldConfig[];
  files?: Array<{ fields: FieldConfig[] }>;
}

const script = document.currentScript as HTMLScriptElement | null;
const configUrl = script?.dataset.config ?? 'config.json';
const prefix = script?.dataset.formatPrefix ?? 'ssg-yaml-';
const rootKey = script?.dataset.rootKey ?? 'items';
const articlePrefix = script?.dataset.articlePrefix ?? 'ssg-article-';

const localeFolders: string[] = JSON.parse(script?.dataset.localeFolders ?? '[]');

(window as unknown as { CMS_MANUAL_INIT: boolean }).CMS_MANUAL_INIT = true;

/**
 * A locale's articles are in a folder inside the default locale's (content/news/de), which Decap
 * lists with the default locale's two levels down: each backend leaves them out of any other
 * folder's list, so each language's collection lists its own articles only.
 */
function listOwnLocale(cms: DecapCms): void {
  const inOtherLocale = (folder: string, file: string) =>
    localeFolders.some((inner) => inner !== folder && inner.startsWith(`${folder}/`) && file.startsWith(`${inner}/`));
  for (const name of ['github', 'proxy', 'test-repo']) {
    const backend = cms.getBackend(name);
    if (!backend) continue;
    const init = backend.init;
    backend.init = (...args) => {
      const made = init(...args);
      for (const method of ['entriesByFolder', 'allEntriesByFolder'] as const) {
        const list = made[method]?.bind(made) as
          ((folder: string, ...rest: unknown[]) => Promise<{ file: { path: string } }[]>) | undefined;
        if (list)
          made[method] = (async (folder: string, ...rest: unknown[]) =>
            (await list(folder, ...rest)).filter((entry) => !inOtherLocale(folder, entry.file.path))) as never;
      }
      return made;
    };
  }
}

async function start(): Promise<void> {
  const response = await fetch(configUrl, { cache: 'no-store' });
  const config = (await response.json()) as { collections?: CollectionConfig[] };
  const cms = (window as unknown as { CMS: DecapCms }).CMS;
  for (const collection of config.collections ?? []) {
    const format = collection.format;
    if (format?.startsWith(articlePrefix))
      cms.registerCustomFormat(format, collection.extension ?? 'md', articleFormat(collection.fields ?? []));
    if (!format?.startsWith(prefix)) continue;
    const rootList = format.slice(prefix.length).startsWith('list-');
    cms.registerCustomFormat(format, 'yaml', dataFormat(rootList, collection.files?.[0]?.fields ?? [], rootKey));
  }
  if (localeFolders.length > 0) listOwnLocale(cms);
  cms.init({ config });
}

window.addEventListener('DOMContentLoaded', () => void start());
