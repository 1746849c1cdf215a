// The editor's start (ssg's /admin): loaded before Decap CMS's bundle, it stops the automatic
// start, then registers the data files' YAML formats and starts the editor with the configuration
// the build made. A file of its own, not an inline script: the editor's Content-Security-Policy
// allows scripts of the site only.
import { parse, stringify } from 'yaml';

interface Formatter {
  fromFile(content: string): unknown;
  toFile(data: unknown): string;
}

interface DecapCms {
  registerCustomFormat(name: string, extension: string, formatter: Formatter): void;
  init(options: { config: unknown }): void;
}

interface FieldConfig {
  name: string;
  fields?: FieldConfig[];
}

interface CollectionConfig {
  format?: string;
  files?: Array<{ fields: FieldConfig[] }>;
}

const script = document.currentScript as HTMLScriptElement | null;
const configUrl = script?.dataset.config ?? 'config.json';
const prefix = script?.dataset.formatPrefix ?? 'ssg-yaml-';
const rootKey = script?.dataset.rootKey ?? 'items';

(window as unknown as { CMS_MANUAL_INIT: boolean }).CMS_MANUAL_INIT = true;

/** `value` with each object's keys in the order of its fields (those the form does not know last). */
function ordered(value: unknown, fields: readonly FieldConfig[] | undefined): unknown {
  if (!fields) return value;
  if (Array.isArray(value)) return value.map((item) => ordered(item, fields));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const known = fields.filter((field) => Object.hasOwn(record, field.name));
  const names = new Set(known.map((field) => field.name));
  return Object.fromEntries([
    ...known.map((field) => [field.name, ordered(record[field.name], field.fields)]),
    ...Object.entries(record).filter(([name]) => !names.has(name)),
  ]);
}

/** A data file's YAML: a list at its root is edited under `rootKey`, since Decap's forms need a name for it. */
function dataFormat(rootList: boolean, fields: readonly FieldConfig[]): Formatter {
  const listFields = fields.find((field) => field.name === rootKey)?.fields;
  return {
    fromFile(content) {
      const value: unknown = parse(content);
      if (rootList) return { [rootKey]: Array.isArray(value) ? value : [] };
      return value ?? {};
    },
    toFile(data) {
      const value = rootList ? ((data as Record<string, unknown> | undefined)?.[rootKey] ?? []) : data;
      return stringify(ordered(value, rootList ? listFields : fields), { lineWidth: 0 });
    },
  };
}

async function start(): Promise<void> {
  const response = await fetch(configUrl, { cache: 'no-store' });
  const config = (await response.json()) as { collections?: CollectionConfig[] };
  const cms = (window as unknown as { CMS: DecapCms }).CMS;
  for (const collection of config.collections ?? []) {
    const format = collection.format;
    if (!format?.startsWith(prefix)) continue;
    const rootList = format.slice(prefix.length).startsWith('list-');
    cms.registerCustomFormat(format, 'yaml', dataFormat(rootList, collection.files?.[0]?.fields ?? []));
  }
  cms.init({ config });
}

window.addEventListener('DOMContentLoaded', () => void start());
