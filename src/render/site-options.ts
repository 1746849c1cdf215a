// The one schema of `defineSite`'s options, checked as the site is loaded: every key of the
// definition and of each nested option is a known one, each value of the kind it must be. What a
// value means (a route that exists, a redirect's destination) is checked where it is used; this
// catches what would otherwise be silently ignored (`redirect:` for `redirects:`).
import * as z from 'zod/mini';
import { declaredLocation, type DeclarationSites } from '../content/declared-location.ts';
import { explainIssues, type SchemaIssue } from '../content/schema-keys.ts';
import { catalogueError, SsgErrorList, type SsgError } from '../errors/errors.ts';

const optional = z.optional(z.unknown());
const fn = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', {
  error: 'must be a function',
});
const optionalFn = z.optional(fn);
const record = <T extends z.core.SomeType>(value: T) => z.optional(z.record(z.string(), value));

const route = z.strictObject({
  path: z.unknown(),
  page: fn,
  head: fn,
  entries: optionalFn,
  noindex: optional,
  locales: optional,
  paths: optional,
});

const i18n = z.strictObject({
  locales: optional,
  defaultLocale: optional,
  prefixDefaultLocale: optional,
  fallback: optional,
  strict: optional,
  words: optional,
});

const collection = z.strictObject({ type: optional, folder: optional, schema: optional });

const editor = z.strictObject({
  backend: z.strictObject({ repo: z.unknown(), branch: optional, oauthProxy: optional, authEndpoint: optional }),
  publishMode: optional,
  labels: z.optional(z.strictObject({ articles: optional, collections: optional, data: optional })),
  exclude: optional,
});

const markdown = z.strictObject({
  remarkPlugins: optional,
  rehypePlugins: optional,
  allow: z.optional(z.strictObject({ tagNames: optional, attributes: optional })),
  reservedIds: optional,
});

const search = z.strictObject({ indexed: z.unknown(), pages: z.unknown(), language: optional });

const redirect = z.union([z.string(), z.strictObject({ destination: z.unknown(), status: optional })], {
  error: 'must be a destination (a path or URL), or { destination, status }',
});

/** `defineSite({ … })`: each option the generator reads. */
export const siteOptionsSchema = z.strictObject({
  routes: z.array(route),
  i18n: z.optional(i18n),
  collections: record(collection),
  layout: optionalFn,
  schemas: record(z.unknown()),
  check: optionalFn,
  meta: optionalFn,
  feed: optionalFn,
  files: optionalFn,
  drawers: record(fn),
  headers: optionalFn,
  images: optionalFn,
  redirects: record(redirect),
  markdown: z.optional(markdown),
  editor: z.optional(editor),
  search: z.optional(search),
});

type Issue = SchemaIssue & { errors?: Issue[][] };

/**
 * A value that fits neither form of a union (a redirect's object with a misspelt key) is told by
 * the form it was meant as: the one whose own kind it has.
 */
function flattened(issues: readonly Issue[]): Issue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || !issue.errors) return [issue];
    const meant = issue.errors.find((branch) => !branch.some((one) => one.code === 'invalid_type' && !one.path.length));
    if (!meant) return [issue];
    return flattened(meant.map((one) => ({ ...one, path: [...issue.path, ...one.path] })));
  });
}

/** `collections.news.folder`, `routes[3].noindex`: an option's path as it is written. */
function optionPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) =>
      typeof key === 'number'
        ? `[${key}]`
        : !/^[A-Za-z_$][\w$]*$/.test(String(key))
          ? `[${JSON.stringify(String(key))}]`
          : index === 0
            ? String(key)
            : `.${String(key)}`,
    )
    .join('');
}

/** Who declared the option at `path` (the nearest on the way: a collection's own call, else defineSite's), and the path from there. */
function declaredBy(site: object, path: readonly PropertyKey[], sites: DeclarationSites) {
  let value: unknown = site;
  let declared = { site: sites(site), rest: [...path] };
  path.forEach((key, index) => {
    value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
    const own = sites(value);
    if (own) declared = { site: own, rest: path.slice(index + 1) };
  });
  return declared;
}

/**
 * Checks the site's definition against the schema: one error per mistake, each naming the file
 * and line that declares the option (the site's entry, or the file that called `defineCollection`)
 * and, for an unknown key, the nearest known one.
 */
export function checkSiteOptions(
  site: object,
  siteFile: string,
  declarations: { root: string; sites: DeclarationSites },
): void {
  const result = siteOptionsSchema.safeParse(site);
  if (result.success) return;
  const where = (path: readonly PropertyKey[]) => {
    const { site: declared, rest } = declaredBy(site, path, declarations.sites);
    return declaredLocation(declared, declarations.root, rest) ?? { file: siteFile };
  };
  const issues = flattened(result.error.issues as unknown as Issue[]);
  const { unknownKeys, others } = explainIssues(siteOptionsSchema, issues, site);
  const errors: SsgError[] = [
    ...unknownKeys.map(({ path, key, meant, known }) =>
      catalogueError('SiteOptionUnknown', [optionPath([...path, key]), meant, known], where([...path, key])),
    ),
    ...others.map((issue) =>
      catalogueError('SiteOptionInvalid', [optionPath(issue.path), issue.message], where(issue.path)),
    ),
  ].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  if (errors.length === 1) throw errors[0];
  throw new SsgErrorList(errors);
}
