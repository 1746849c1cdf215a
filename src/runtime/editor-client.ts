// The editor's start (ssg's /admin): loaded before Decap CMS's bundle, it stops the automatic
// start, then registers the articles' and data files' formats and starts the editor with the configuration
// the build made. A file of its own, not an inline script: the editor's Content-Security-Policy
// allows scripts of the site only.
import { articleFormat, dataFormat, type FieldConfig, type Formatter } from './editor-formats.ts';

interface DecapCms {
  registerCustomFormat(name: string, extension: string, formatter: Formatter): void;
  init(options: { config: unknown }): void;
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

(window as unknown as { CMS_MANUAL_INIT: boolean }).CMS_MANUAL_INIT = true;

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
  cms.init({ config });
}

window.addEventListener('DOMContentLoaded', () => void start());
