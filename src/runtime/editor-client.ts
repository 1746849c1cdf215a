// The editor's start (ssg's /admin): loaded before Decap CMS's bundle, it stops the automatic
// start, then registers the format of YAML files whose root is a list and starts the editor with the configuration
// the build made. A file of its own, not an inline script: the editor's Content-Security-Policy
// allows scripts of the site only.
import { parse, stringify } from 'yaml';

interface DecapCms {
  registerCustomFormat(
    name: string,
    extension: string,
    formatter: { fromFile(content: string): unknown; toFile(data: unknown): string },
  ): void;
  init(options: { config: unknown }): void;
}

const script = document.currentScript as HTMLScriptElement | null;
const configUrl = script?.dataset.config ?? 'config.json';
const format = script?.dataset.format ?? 'yaml-root-list';
const rootKey = script?.dataset.rootKey ?? 'items';

(window as unknown as { CMS_MANUAL_INIT: boolean }).CMS_MANUAL_INIT = true;

/** A data file whose root is a list: edited under `rootKey`, since Decap's forms need a name for it. */
const rootListFormat = {
  fromFile(content: string): unknown {
    const value: unknown = parse(content);
    return { [rootKey]: Array.isArray(value) ? value : [] };
  },
  toFile(data: unknown): string {
    const list = (data as Record<string, unknown> | undefined)?.[rootKey];
    return stringify(Array.isArray(list) ? list : [], { lineWidth: 0 });
  },
};

async function start(): Promise<void> {
  const response = await fetch(configUrl, { cache: 'no-store' });
  const config: unknown = await response.json();
  const cms = (window as unknown as { CMS: DecapCms }).CMS;
  cms.registerCustomFormat(format, 'yaml', rootListFormat);
  cms.init({ config });
}

window.addEventListener('DOMContentLoaded', () => void start());
