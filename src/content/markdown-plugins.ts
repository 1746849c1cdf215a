// The site's own Markdown plugins, as unified takes them (a plugin, or `[plugin, options]`), each
// wrapped so that one that throws fails the build naming the article and the plugin; and the
// sanitiser's schema with what the site allows its plugins to make.
import { createHash } from 'node:crypto';
import type { Pluggable, Plugin, PluggableList, Transformer } from 'unified';
import type { VFile } from 'vfile';
import { catalogueError, isExpectedError } from '../errors/errors.ts';
import type { Schema } from './markdown-html.ts';
import { needsSiteModule, changesMarkdown, type MarkdownOptions } from './markdown-options.ts';
import { versionsOfPackages } from './package-versions.ts';

type AnyPlugin = Plugin<unknown[], never, never>;

/** `remarkMath` → "remarkMath (markdown.remarkPlugins[0])". */
const pluginName = (plugin: AnyPlugin, list: string, index: number) =>
  `${plugin.name || 'a plugin without a name'} (markdown.${list}[${index}])`;

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** One entry of the site's list, its transformer wrapped: a throw names the article and the plugin. */
function wrapped(entry: Pluggable, list: string, index: number): Pluggable {
  const [plugin, ...settings] = (Array.isArray(entry) ? entry : [entry]) as [AnyPlugin, ...unknown[]];
  if (typeof plugin !== 'function') throw catalogueError('MarkdownPluginInvalid', [`markdown.${list}[${index}]`]);
  const name = pluginName(plugin, list, index);
  function attacher(this: unknown, ...args: unknown[]) {
    let transformer: Transformer | void;
    try {
      transformer = (plugin as (...parameters: unknown[]) => Transformer | void).apply(this, args);
    } catch (error) {
      throw catalogueError('MarkdownPluginFailed', [name, reasonOf(error)], {}, { cause: error });
    }
    if (typeof transformer !== 'function') return transformer;
    const transform = transformer;
    const fail = (error: unknown, file: VFile) => {
      if (isExpectedError(error)) throw error;
      throw catalogueError(
        'MarkdownPluginFailed',
        [name, reasonOf(error)],
        { file: file.path || undefined },
        { cause: error },
      );
    };
    // Two parameters: unified waits for a third (`next`) when a transformer declares one.
    return (tree: never, file: VFile) => {
      try {
        if (transform.length >= 3) {
          // A callback-style transformer, made a promise.
          return new Promise((resolve, reject) =>
            (transform as (...parameters: unknown[]) => void)(tree, file, (error?: unknown, result?: unknown) =>
              error ? reject(error) : resolve(result),
            ),
          ).catch((error: unknown) => fail(error, file));
        }
        const result = (transform as (...parameters: unknown[]) => unknown)(tree, file);
        return result instanceof Promise ? result.catch((error: unknown) => fail(error, file)) : result;
      } catch (error) {
        return fail(error, file);
      }
    };
  }
  Object.defineProperty(attacher, 'name', { value: plugin.name });
  return [attacher as Plugin, ...settings] as Pluggable;
}

/** The site's plugins of one list, as a preset unified can use. */
export function sitePlugins(list: readonly Pluggable[] | undefined, name: 'remarkPlugins' | 'rehypePlugins') {
  if (list !== undefined && !Array.isArray(list)) throw catalogueError('MarkdownPluginInvalid', [`markdown.${name}`]);
  return { plugins: (list ?? []).map((entry, index) => wrapped(entry, name, index)) as PluggableList };
}

/** The schema with the site's additions; its protections (stripped elements, URL schemes, id prefixes) unchanged. */
export function withAllowed(schema: Schema, allow: MarkdownOptions['allow']): Schema {
  if (!allow) return schema;
  const attributes: NonNullable<Schema['attributes']> = { ...schema.attributes };
  for (const [tag, names] of Object.entries(allow.attributes ?? {})) {
    // Never an event handler or a style attribute, whatever is listed.
    const safe = names.filter((attribute) => !/^on/i.test(attribute) && attribute.toLowerCase() !== 'style');
    attributes[tag] = [...(attributes[tag] ?? []), ...safe];
  }
  const tagNames = [
    ...(schema.tagNames ?? []),
    ...(allow.tagNames ?? []).filter(
      (tag) =>
        !(schema.strip ?? []).includes(tag) &&
        !['script', 'style', 'iframe', 'object', 'embed', 'base', 'meta', 'link', 'form'].includes(tag),
    ),
  ];
  return { ...schema, tagNames, attributes };
}

/**
 * What the site's Markdown settings are, for the Markdown cache's key: each plugin's code and
 * options, what it allows, and the versions of the packages the site's code is made of
 * (`siteSources`: the files its bundle was made from). A function (a plugin, or one in its
 * options) counts as `codeOf` says: by default its own text; the pipeline gives the module that
 * defines it and every module that imports, so a plugin's helper in another file counts and the
 * rest of the site's code does not. A new plugin, option or version converts every article again.
 */
export function markdownStamp(
  options: MarkdownOptions | undefined,
  siteSources: readonly string[],
  codeOf: (fn: (...args: never[]) => unknown) => string = String,
): string {
  // Without settings, nothing to read: the package files are only looked at for plugins.
  if (!changesMarkdown(options)) return '';
  // The packages' versions only matter (and are only read) when there is code of the site's to run.
  const versions = needsSiteModule(options) ? versionsOfPackages(siteSources) : {};
  const text = JSON.stringify(
    [options.remarkPlugins, options.rehypePlugins, options.allow, options.reservedIds, versions],
    (_, value: unknown) =>
      typeof value === 'function'
        ? `${value.name}:${codeOf(value as (...args: never[]) => unknown)}`
        : value instanceof RegExp
          ? String(value)
          : value,
  );
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
