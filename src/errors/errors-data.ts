/**
 * The catalogue of expected errors, as Astro's errors-data: each failure has a permanent name (the
 * key, printed as `[Name]`), a title saying what went wrong in general, a message made from the
 * details of one occurrence, and a hint saying what to do (for some also made from the details).
 * Distinct failures have distinct names. This is the only place messages are worded: an SsgError
 * is made by `catalogueError(name, details, location)` in src/errors/errors.ts
 * (tests/error-catalogue.test.ts checks). Data only: the machinery is in src/errors/errors.ts.
 */
import { byCase, type CatalogueEntry } from './error-wording.ts';

/** esbuild's message, and the line it points at (shown below it): the compile failures' one wording. */
const compileFailure = (error: string, lineText?: string) => `${error}${lineText ? `\n    ${lineText.trim()}` : ''}`;

/** The page a link is on, and how many other pages carry it (a link in the layout is on every page). */
const onPages = (page: string, others: number) =>
  others === 0 ? `The page ${page} links` : `The page ${page} and ${others} other page${others === 1 ? '' : 's'} link`;

/** `<what ran> threw: <what it threw>`: the site's code threw (see src/errors/site-code-error.ts). */
const threw = (what: string, thrown: string) => `${what} threw: ${thrown}`;

/** After a failed write into the staging folder: removed by now, it is named after the output folder and why. */
const stagingGone = (outDir: string, reason: string, staging: string) =>
  `${outDir}: ${reason}. Nothing was swapped in, and the unfinished copy ${staging} is removed.`;

export const errorCatalogue = {
  FrontMatterUnclosed: {
    title: 'The front matter has no closing line',
    hint: (format: 'yaml' | 'toml' | 'json') =>
      format === 'json'
        ? 'Add a line holding only } after the JSON front matter.'
        : format === 'toml'
          ? 'Add a line with three plus signs (+++) after the TOML front matter.'
          : 'Add a line with three dashes (---) after the front matter.',
    message: (_format: 'yaml' | 'toml' | 'json', line: number) =>
      `The front matter block opened on line ${line} is never closed.`,
  },
  FrontMatterInvalidYaml: {
    title: 'The front matter is not valid YAML',
    hint: 'Fix the YAML between the two --- lines.',
    message: (yamlError: string) => `Invalid YAML in front matter: ${yamlError}`,
  },
  FrontMatterInvalidToml: {
    title: 'The front matter is not valid TOML',
    hint: 'Fix the TOML between the two +++ lines (text needs quotes: title = "Hello").',
    message: (tomlError: string) => `Invalid TOML in front matter: ${tomlError}`,
  },
  FrontMatterInvalidJson: {
    title: 'The front matter is not valid JSON',
    hint: 'Fix the JSON object between the { and } lines (keys and text in double quotes, no comma after the last field), or write the front matter as YAML between --- lines.',
    message: (jsonError: string) => `Invalid JSON in front matter: ${jsonError}`,
  },
  FrontMatterTooLarge: {
    title: 'The front matter is longer than the build reads',
    hint: 'Keep the front matter to the fields (title, date, excerpt, tags…); move long text into the body.',
    message: (length: number, limit: number) => `The front matter is ${length} characters; at most ${limit} are read.`,
  },
  FrontMatterTooDeep: {
    title: 'The front matter nests deeper than the build reads',
    hint: 'Flatten its lists and maps: fields nest two or three deep.',
    message: (limit: number) => `The front matter nests lists or maps more than ${limit} deep.`,
  },
  FrontMatterAliasesExcessive: {
    title: 'The front matter expands too many YAML aliases',
    hint: 'Write the values out instead of repeating them through anchors (&name) and aliases (*name).',
    message: (limit: number) =>
      `The front matter uses YAML aliases more than ${limit} times over, as a "billion laughs" attack does; it is not read.`,
  },
  FrontMatterFieldInvalid: {
    title: 'A front matter field is wrong',
    hint: 'Fix the field on the line named; docs/reference/front-matter.md lists every field and its type.',
    /** The schema's own message for the field (src/content/frontmatter-schema.ts words them). */
    message: (issue: string) => issue,
  },
  FrontMatterNotMapping: {
    title: 'The front matter is not key: value pairs',
    hint: 'Front matter must be key: value pairs, for example "title: Hello".',
    message: () => 'The front matter is not a list of key: value pairs.',
  },
  ArticleSlugInvalid: {
    title: 'The file name is not a URL slug',
    /** `suggested`: the slug Hugo or Eleventy would make of it ('' when it has no Latin letter or digit); `renamed`: the name to give the file or folder. */
    hint: (_slug: string, suggested: string, kind: 'file' | 'folder', renamed: string) =>
      suggested === ''
        ? `Rename the ${kind} to lowercase Latin letters (a-z), digits and single hyphens, for example "${kind === 'file' ? 'my-first-post.md' : 'my-first-post'}": the name is the page's address.`
        : `Rename the ${kind} to "${renamed}" (lowercase letters, digits and single hyphens: the name is the page's address).`,
    message: (slug: string, suggested: string, _kind: 'file' | 'folder', _renamed: string) =>
      suggested === ''
        ? `"${slug}" is not a safe URL slug.`
        : `"${slug}" is not a safe URL slug; as other generators make slugs, it would be "${suggested}".`,
  },
  FrontMatterSlugNotRead: {
    title: 'The front matter names a slug other than the file name',
    hint: (_written: string, _slug: string, kind: 'file' | 'folder', renamed: string) =>
      renamed === ''
        ? 'Remove the slug line: the file name is the slug.'
        : `To publish it as ${renamed.replace(/\.(md|markdown)$/i, '')}, rename the ${kind} to "${renamed}" and remove the slug line; or remove the slug line to keep the address it has.`,
    message: (written: string, slug: string, _kind: 'file' | 'folder', _renamed: string) =>
      `slug ${written} is not read: the file name gives the slug ("${slug}"), and one article has one address.`,
  },
  ArticleTooLarge: {
    title: 'An article is larger than the build reads',
    hint: (_bytes: number, limit: number) =>
      `Split it into several articles, or move what is not prose (a log, data) into a file beside it and link to it; a site that needs larger articles raises the limit with --max-article-kb (now ${Math.round(limit / 1024)}).`,
    message: (bytes: number, limit: number) =>
      `The file is ${Math.ceil(bytes / 1024)} KB; an article may be at most ${Math.round(limit / 1024)} KB.`,
  },
  ArticleTooDeep: {
    title: 'An article nests deeper than the build reads',
    hint: (...[kind, , limit]: [kind: string, ...details: unknown[]]) =>
      kind === 'levels'
        ? `Flatten the nesting of its lists and block quotes (a site that needs more raises the limit with --max-nesting, now ${String(limit)}).`
        : 'Flatten the nesting of its lists, block quotes or HTML elements.',
    message: byCase({
      levels: (depth: number, limit: number) =>
        `The body nests block quotes and lists about ${depth} levels deep here; at most ${limit} are read.`,
      stack: () => 'The body nests lists, block quotes or HTML elements deeper than the Markdown converter can follow.',
    }),
  },
  ArticleTooSlow: {
    title: 'An article took too long to convert',
    hint: (seconds: number) =>
      `Look for what the Markdown repeats thousands of times (runs of *, _, [ or < with no end); its conversion was stopped after ${seconds} s. A site with articles that need longer raises the limit with --article-seconds.`,
    message: (seconds: number) =>
      `Converting its Markdown took more than ${seconds} s; the helper converting it was stopped.`,
  },
  ArticleOutOfMemory: {
    title: 'An article needed more memory than a helper has',
    hint: 'Split it into several articles, or look for what it repeats thousands of times (links, references, table cells).',
    message: (megabytes: number) =>
      `Converting its Markdown needed more than the ${megabytes} MB a Markdown helper may use; the helper ended.`,
  },
  ExcerptTooLong: {
    title: 'An excerpt is longer than a summary',
    hint: (_length: number, _limit: number, from: 'front matter' | 'body') =>
      from === 'body'
        ? 'Move the <!--more--> line up, after the first paragraph or two: what comes before it is the summary on the lists and in the feed.'
        : 'Shorten the excerpt to a sentence or a paragraph: it is the summary on the lists, in the feed and in search results.',
    message: (length: number, limit: number, from: 'front matter' | 'body') =>
      `The excerpt (${from === 'body' ? 'the body before <!--more-->' : 'excerpt in front matter'}) is ${length} characters; at most ${limit} are read.`,
  },
  FrontMatterKeyNotRead: {
    title: 'The front matter uses a key another generator publishes with',
    hint: (_key: string, _value: string, _meaning: string, advice: string) => advice,
    message: (key: string, value: string, meaning: string, _advice: string) =>
      `${key}: ${value} is not read: ${meaning}.`,
  },
  FrontMatterKeyMisspelt: {
    title: 'A front-matter key looks like a misspelt one',
    hint: byCase({
      key: (key: string, meant: string) =>
        `Rename ${key} to ${meant}. If ${key} is a field of the site's own, declare it in its collection's schema (defineCollection({ schema: z.object({ ${key}: … }) })).`,
      more: (_count: number) => 'Correct the ten above first; the build names the rest then.',
    }),
    message: byCase({
      key: (key: string, meant: string) =>
        `"${key}" is not a key ssg reads, so it changes nothing; did you mean ${meant}?`,
      more: (count: number) => `${count} more keys look like misspelt ones.`,
    }),
  },
  ArticleNotText: {
    title: 'An article file is not UTF-8 text',
    hint: (...[kind]: [kind: string, ...details: unknown[]]) =>
      kind === 'binary'
        ? 'Move the file out of the content folder (an image goes beside the article, linked from its text), or save the article as Markdown text.'
        : 'Save the file as UTF-8 (in VS Code: "Save with Encoding", then "UTF-8"; most editors have the same under "Save as").',
    message: byCase({
      binary: (what: string) => `The file is not text: it is ${what}.`,
      utf16: () => 'The file is saved as UTF-16, not UTF-8.',
      encoding: (byte: string) =>
        `The file is not UTF-8: byte ${byte} is no UTF-8 character (the file is probably saved as Windows-1252 or Latin-1).`,
    }),
  },
  ArticleSlugDuplicate: {
    title: 'Two articles have one slug',
    hint: 'Rename one of the files: each article needs its own file name.',
    message: (slug: string, usedBy: string) => `The slug "${slug}" is already used by ${usedBy}.`,
  },
  CollectionInvalid: {
    title: 'A collection is declared wrongly',
    hint: 'Fix the collection in defineSite({ collections }): a name of letters, digits, - and _, a folder of its own below content/, and type "content" or "data".',
    message: byCase({
      name: (name: string) => `The collection name "${name}" is not a name of letters, digits, - and _.`,
      notObject: (name: string) =>
        `The collection "${name}" is not an object; declare it with defineCollection({ … }).`,
      type: (name: string) => `The collection "${name}" has a type other than "content" or "data".`,
      folder: (name: string, folder: string) =>
        `The folder of the collection "${name}" is ${folder}, which is not a folder below content/.`,
      nested: (name: string, folder: string) =>
        `The folder of the collection "${name}" is "${folder}", a folder inside another; name one directly below content/ ("${folder.split('/').pop()}"), as links between collections lead to /<folder>/<slug>.`,
      schema: (name: string) =>
        `The schema of the collection "${name}" has no safeParse; give it a zod schema (z.object({ … })) or leave schema out.`,
      notFolder: (name: string) =>
        `This is the folder of the collection "${name}", but it is a file; move the file away or give the collection another folder.`,
      overlaps: (name: string, other: string) =>
        `The folders of the collections "${name}" and "${other}" are one, or one is inside the other; give each collection its own folder.`,
      feed: (name: string) =>
        `The feed carries the collection "${name}", which is no content collection of the site; name one in collections, or leave collection out.`,
      editorName: (name: string) =>
        `The editor would list two collections as "${name}": with i18n, a collection's articles in a locale are listed as <collection>-<locale>. Rename the collection called ${name}.`,
      dataClash: (name: string, file: string) =>
        `The data collection "${name}" has the name of the data file ${file}; pages would receive both as data.${name}. Rename one.`,
    }),
  },
  ArticleSchemaMismatch: {
    title: "An article's front matter does not match its collection's schema",
    hint: "Correct the field as the collection's schema (defineCollection in the site's code) asks.",
    /** `field`: the key as written; `issue`: the schema's message; `collection`: whose schema. */
    message: (field: string, issue: string, collection: string) =>
      `${field}: ${issue} (the schema of the collection "${collection}")`,
  },
  DataInvalidYaml: {
    title: 'A data file is not valid YAML',
    hint: 'Fix the YAML syntax in this file.',
    message: (yamlError: string) => `Invalid YAML: ${yamlError}`,
  },
  DataInvalidJson: {
    title: 'A data file is not valid JSON',
    hint: 'Fix the JSON at the place named: keys and strings in double quotes, no comma after the last item, no comments; or save the file as .yaml.',
    message: (reason: string) => `Invalid JSON: ${reason}`,
  },
  DataSchemaMismatch: {
    title: 'A data file does not match its schema',
    hint: 'Correct the fields listed above.',
    /** `field`: where in the file, as `describePath` names it; `issue`: the schema's message. */
    message: (field: string, issue: string) => `${field}: ${issue}`,
  },
  DataKeyUnknown: {
    title: 'A data file has a key its schema does not know',
    hint: (_field: string, key: string, meant: string | undefined, known: readonly string[]) =>
      meant
        ? `Rename ${key} to ${meant}.`
        : known.length > 0
          ? `Remove ${key}, or correct it to one of the keys the schema takes: ${known.join(', ')}.`
          : `Remove ${key}, or add it to the site's schema for this file.`,
    /** `field`: where in the file, as `describePath` names it. */
    message: (field: string, _key: string, meant: string | undefined, _known: readonly string[]) =>
      `${field} is not a key this file takes${meant ? `; did you mean ${meant}?` : '.'}`,
  },
  DataEntryDuplicate: {
    title: 'Two data files have one id',
    hint: "Rename or remove one of the two: an entry's id is its file's path without the extension, so alice.yaml and alice.json are both alice.",
    message: (id: string, other: string) => `The id "${id}" is also the id of ${other}.`,
  },
  DataFileMissing: {
    title: 'A data file the site needs is missing',
    hint: (name: string) => `Create content/${name}.yaml.`,
    message: (name: string) => `content/${name}.yaml is missing; the site needs it.`,
  },
  SiteConfigMissing: {
    title: 'There is no content/site.yaml',
    hint: 'Create content/site.yaml with at least "baseUrl: https://example.com".',
    message: (configFile: string) => `${configFile} is missing, and no --base-url was given.`,
  },
  BaseUrlInvalid: {
    title: 'The base URL is not an absolute origin',
    hint: 'Use an absolute origin such as https://example.com (in content/site.yaml or --base-url).',
    message: byCase({
      unset: () => 'The base URL is not set.',
      notAbsolute: (value: string) => `The base URL "${value}" is not an absolute URL.`,
      notHttp: (value: string) => `The base URL "${value}" is not http or https.`,
      hasPath: (value: string) => `The base URL "${value}" has a path; give the origin only.`,
    }),
  },
  TemplateMissing: {
    title: 'There is no document shell',
    hint: 'Create templates/document.html with <!--ssg:head--> and <!--ssg:body--> markers.',
    message: () => 'The document shell is missing.',
  },
  TemplateMarkerMissing: {
    title: 'The document shell lacks a marker',
    hint: 'Add the missing marker to the document shell.',
    message: (marker: string) => `The document shell has no ${marker} marker.`,
  },
  SiteDefinitionInvalid: {
    title: 'The route table is missing or malformed',
    hint: 'site/index.tsx must default-export defineSite({ routes: [...] }).',
    message: () => 'The site definition has no route table.',
  },
  SiteOptionUnknown: {
    title: 'The site definition has an option ssg does not know',
    hint: (option: string, meant: string | undefined, known: readonly string[]) =>
      meant
        ? `Rename it to ${meant}; docs/reference/define-site.md lists every option.`
        : `Remove ${option.split(/[.[]/).pop()}, or use one of ${known.join(', ')}; docs/reference/define-site.md lists every option.`,
    message: (option: string, meant: string | undefined, _known: readonly string[]) =>
      `defineSite's ${option} is not an option, so it would be ignored${meant ? `; did you mean ${meant}?` : '.'}`,
  },
  SiteOptionInvalid: {
    title: 'An option of the site definition has the wrong kind of value',
    hint: 'Correct the option; docs/reference/define-site.md gives each option and its type.',
    message: (option: string, issue: string) => `defineSite's ${option}: ${issue}`,
  },
  SiteCompileFailed: {
    title: 'The site code does not compile',
    hint: 'Fix the code at the line shown.',
    message: compileFailure,
  },
  ClientCompileFailed: {
    title: 'The browser code does not compile',
    hint: 'Fix the code at the line shown.',
    message: compileFailure,
  },
  BuildWatchUnknown: {
    title: 'The build command does not watch',
    hint: 'Run "ssg dev" (npm run dev): it builds, serves the site and rebuilds what changes on every save.',
    message: () => 'ssg build has no --watch: it builds once and exits. Watching the files is what dev mode does.',
  },
  PackageMissing: {
    title: 'A package the code imports is not installed',
    hint: (name: string, listedAsDev: boolean) =>
      listedAsDev
        ? `${name} is a devDependency in package.json, which an install with --omit=dev leaves out: move it to dependencies (npm install --save-prod ${name}).`
        : `Install it: npm install ${name}`,
    message: (name: string, _listedAsDev: boolean, importers: number) =>
      `The package "${name}" is imported${importers > 1 ? ` by ${importers} files` : ''} but is not installed in node_modules.`,
  },
  MdxInvalid: {
    title: 'An MDX article does not compile',
    hint: 'Fix the MDX at the line shown: a JSX tag must be closed, `{` opens an expression (write `\\{` for a brace), `<` opens a tag (write `&lt;`), and a comment is written {/* like this */}.',
    message: (reason: string) => `The MDX body cannot be read: ${reason}`,
  },
  MdxCompilerMissing: {
    title: 'MDX articles need a package that is not installed',
    hint: 'Reinstall the packages (npm ci): ssg depends on @mdx-js/mdx and loads it only when a site has an MDX article.',
    message: (reason: string) => `The MDX compiler (@mdx-js/mdx) could not be loaded: ${reason}`,
  },
  MdxImportFailed: {
    title: 'What an MDX article imports does not compile',
    hint: 'Fix the code at the line shown (an import is relative to the article’s folder).',
    message: compileFailure,
  },
  MdxRenderFailed: {
    title: 'An MDX article threw while it rendered',
    hint: 'Fix the component, or the props the article gives it: each MDX article is rendered once in the build, in Node, where there is no window or document.',
    message: (thrown: string) => threw('Rendering the article', thrown),
  },
  ImportNotFound: {
    title: 'An imported file does not exist',
    hint: 'Fix the path of the import, or create the file. File names are case-sensitive on Linux (CI, most hosts).',
    message: (specifier: string, namedAs?: string) =>
      `"${specifier}" is imported here, but no such file exists${namedAs ? ` (there is ${namedAs}: the name's case differs)` : ''}.`,
  },
  RouteInvalid: {
    title: 'A route is malformed',
    hint: "Check the route table in site/index.tsx (with i18n, a route's locales and paths too).",
    message: byCase({
      pathNotAbsolute: (path: unknown) => `Route path ${JSON.stringify(path)} must start with "/".`,
      noPageOrHead: (route: string) => `Route ${route} needs a page component and a head function.`,
      noEntries: (route: string) => `Route ${route} has parameters but no entries() to list its pages.`,
      entriesNotList: (route: string, entries: unknown) =>
        `entries() of the route ${route} returned ${entries === null ? 'null' : typeof entries}, not a list.`,
      entryWithoutParams: (route: string) =>
        `Route ${route}: each entry needs params, for example { params: { slug: 'a' } }.`,
      routeLocale: (route: string, locale: unknown, locales: readonly string[]) =>
        `Route ${route} names the locale ${JSON.stringify(locale)} (in locales or paths), which is not one of i18n.locales (${locales.join(', ')}).`,
      localesNotList: (route: string) =>
        `Route ${route}: locales must be a list of at least one of i18n.locales, such as ['en', 'de'].`,
      pathsNotObject: (route: string) =>
        `Route ${route}: paths must be an object of a path by locale, such as { de: '/ueber-uns' }.`,
      pathPrefixed: (route: string, locale: string, path: string, prefix: string) =>
        `Route ${route}: its path in "${locale}", ${path}, starts with ${prefix}, which is added to it (${prefix}${path}); write ${path.slice(prefix.length) || '/'}.`,
      localeParams: (route: string, locale: string, path: string) =>
        `Route ${route}: its path in "${locale}", ${path}, must have the same parameters as the route's own.`,
      noI18n: (route: string) =>
        `Route ${route} has locales or paths, but the site has no i18n: add i18n to defineSite, or take them out.`,
      articleProp: (route: string, name: string) =>
        `Route ${route} hands each page its article as props.${name}: with i18n, name it props.article, which links the page to the article's translations (hreflang, the switcher, a fallback's canonical URL).`,
      paramInvalid: (route: string, param: string, value: unknown) =>
        `Route ${route}: parameter "${param}" is ${value === undefined ? 'missing' : `"${String(value)}", not a safe URL segment`}.`,
    }),
  },
  I18nInvalid: {
    title: "The site's locales cannot be used",
    hint: "Fix `i18n` in the site's definition (site/index.tsx), such as `{ locales: ['en', 'de'], defaultLocale: 'en' }`; docs/i18n.md explains each field.",
    message: byCase({
      noLocales: () => 'i18n.locales must list at least one language tag, such as ["en", "de"].',
      locale: (locale: unknown) =>
        `i18n.locales holds ${JSON.stringify(locale)}, which is no language tag ssg takes: a language such as "de", or with a region such as "de-AT".`,
      twice: (locale: string) => `i18n.locales lists "${locale}" twice.`,
      defaultLocale: (locale: unknown, locales: readonly string[]) =>
        `i18n.defaultLocale is ${JSON.stringify(locale)}, which is not one of i18n.locales (${locales.join(', ')}).`,
      prefix: (value: unknown) => `i18n.prefixDefaultLocale is ${JSON.stringify(value)}; it is true or false.`,
      strict: (value: unknown) => `i18n.strict is ${JSON.stringify(value)}; it is true or false.`,
      words: (value: unknown) =>
        `i18n.words is ${JSON.stringify(value)}; it gives, per locale, the words ssg writes in articles, such as { "de": { "footnotes": "Anmerkungen" } }.`,
      wordsLocale: (locale: string, locales: readonly string[]) =>
        `i18n.words has words for "${locale}", which is not one of i18n.locales (${locales.join(', ')}).`,
      word: (locale: string, key: string, keys: readonly string[]) =>
        `i18n.words.${locale}.${key} is no text for one of the words ssg writes (${keys.join(', ')}).`,
      fallback: (value: unknown) =>
        `i18n.fallback is ${JSON.stringify(value)}; it names, for a locale, the locale whose articles it lists when untranslated, such as { "de": "en" }.`,
      fallbackLocale: (from: string, to: unknown, locales: readonly string[]) =>
        `i18n.fallback gives "${from}" the fallback ${JSON.stringify(to)}; both must be two of i18n.locales (${locales.join(', ')}).`,
    }),
  },
  StringsInvalid: {
    title: 'A strings file cannot be read',
    hint: 'Give each key of content/strings/<locale>.yaml a text (or a map of keys, read as nav.about); docs/i18n.md shows one.',
    message: byCase({
      notMap: (key: string) => `${key} is not a map of keys to texts.`,
      notText: (key: string, value: string) =>
        `${key} is ${value}, which is no text; write it as text, in quotes if need be.`,
      twice: (key: string) => `${key} is given twice (as a dotted key and inside a map of keys); keep one of them.`,
      locale: (locale: string, locales: readonly string[]) =>
        `${locale} is not one of i18n.locales (${locales.join(', ')}); name the file after one, or add ${locale} to them.`,
      dataFile: (file: string) =>
        `${file} has the name of the site's strings (content/strings/<locale>.yaml on a site with i18n), which pages would receive as data.strings too; rename it.`,
    }),
  },
  StringMissing: {
    title: 'A page asks for a string no strings file has',
    hint: "Add the key to the strings file of the site's default locale (and its translations to the others), or correct the key in the page's t() call.",
    message: byCase({
      key: (key: string, locale: string, files: readonly string[], meant?: string) =>
        `t(${JSON.stringify(key)}) on a page in ${locale}: no strings file has "${key}" (${files.join(', ')})${meant ? `; did you mean ${meant}?` : '.'}`,
      onPage: (page: string, message: string) => `The page ${page}: ${message}`,
      value: (key: string, name: string, file: string) =>
        `"${key}" of ${file} has {${name}}, but t(${JSON.stringify(key)}) was given no ${name}.`,
    }),
  },
  StringsIncomplete: {
    title: "A locale's strings are incomplete",
    hint: "Add what is missing, or leave out `strict` in i18n to show the default locale's text with a warning instead.",
    message: (problem: string) => problem,
  },
  TranslationKeyDuplicate: {
    title: 'Two pages of one language are translations of the same page',
    hint: "Give each page its own translationKey in the route's entries() (site/index.tsx): where the key comes from an article's front matter, fix it there.",
    message: (route: string, key: string, first: string, second: string) =>
      `Route ${route} gives the translation key ${JSON.stringify(key)} to two pages of one locale, ${first} and ${second}.`,
  },
  RouteDuplicate: {
    title: 'Two routes write one path',
    hint: 'Each output path may be produced by one route only.',
    message: (firstRoute: string, route: string, outputPath: string) =>
      `Routes ${firstRoute} and ${route} both write ${outputPath}.`,
  },
  GeneratedFilePathInvalid: {
    title: 'A generated file has no path on the site',
    hint: 'Give the file a path on the site starting with / in the site\'s files() or feed() (site/index.tsx), such as "/news/feed.xml": never ../ or a folder.',
    message: byCase({
      feed: (path: unknown) =>
        `The feed's path ${JSON.stringify(path)} needs a path on the site such as "/news/feed.xml".`,
      file: (path: unknown) =>
        `The generated file ${JSON.stringify(path)} needs a path on the site such as "/news/post.png".`,
      feedLink: () =>
        "The feed has no link(article), the path of each article's page, for its entries: give it one, such as link: (article) => `/news/${article.slug}`.",
    }),
  },
  PageRenderFailed: {
    title: 'A page threw while rendering',
    hint: 'Fix the component so it renders; run with --verbose for the stack trace.',
    message: (page: string, thrown: string) => `The page ${page} failed to render: ${thrown}`,
  },
  IslandUnknown: {
    title: 'A page uses an island that has no file',
    hint: 'Create site/islands/<name>.tsx, or use the name of an existing island.',
    message: (page: string, island: string) => `The page ${page} uses the island "${island}", which has no file.`,
  },
  CacheUnusable: {
    title: 'A cache file cannot be used',
    hint: 'Move the file out of the way (or delete .cache: it only makes the next build slower).',
    message: byCase({
      fileInTheWay: () => 'A file stands where the build keeps its cache folder (at this path or one above it).',
      linkToNothing: () =>
        'A symbolic link stands where the build keeps its cache folder (at this path or one above it), and leads nowhere.',
      notCreated: (reason: string) => `The cache folder cannot be created: ${reason}`,
    }),
  },
  CacheEntryChanged: {
    title: 'A cache entry changed while the build used it',
    hint: 'Build again: the entry was removed, and the next build makes it anew. Leave .cache/ssg to the build.',
    message: (entry: string) =>
      `${entry} no longer holds what the build wrote there: something else changed it, keeping its size and times.`,
  },
  ProjectRootMissing: {
    title: 'The site folder does not exist',
    hint: 'Give -C the folder that holds content/, site/ and templates/, or run from inside it.',
    message: byCase({
      missing: (shown: string, root: string) => `The site folder "${shown}" (${root}) does not exist.`,
      notAFolder: (shown: string, root: string) => `The site folder "${shown}" (${root}) is not a folder.`,
    }),
  },
  OutDirEmpty: {
    title: '--out is empty',
    hint: 'Give --out a folder name such as "dist"; if a script passes a variable, check that it is set.',
    message: (value: string) => `The output folder is empty ("${value}"): the build would replace the project folder.`,
  },
  OutDirInvalid: {
    title: '--out is not a folder path',
    hint: 'Give --out a plain folder path, such as "dist" or "../site-output".',
    message: byCase({
      nameTooLong: (shown: string) => `The output folder "${shown.slice(0, 80)}…" has too long a name.`,
      nulCharacter: (value: string) => `The output folder "${value.replaceAll('\0', '\\0')}" holds a NUL character.`,
    }),
  },
  OutDirContainsProject: {
    title: '--out holds the project',
    hint: 'Give --out a folder of its own, such as "dist"; the build replaces the whole folder.',
    /** `project`: the project folder (or the generator's) that `outDir` is or holds. */
    message: (shown: string, outDir: string, project: string) =>
      `The output folder "${shown}" (${outDir}) ${outDir === project ? 'is the project folder' : `contains the project folder ${project}`}; building there would replace the sources.`,
  },
  OutDirInSources: {
    title: '--out is inside the sources',
    hint: 'Give --out a folder outside the sources, such as "dist".',
    /** `source`: the source folder `outDir` is or is inside, `name` its name (content, site, …). */
    message: (shown: string, outDir: string, source: string, name: string) =>
      `The output folder "${shown}" (${outDir}) is ${outDir === source ? 'the' : 'inside the'} source folder ${name}/.`,
  },
  OutDirIsFile: {
    title: '--out is a file',
    hint: 'Give --out a folder, not a file, or move the file away.',
    message: (shown: string, outDir: string) => `The output folder "${shown}" (${outDir}) is a file.`,
  },
  OutDirThroughFile: {
    title: '--out goes through a file',
    hint: 'Part of the --out path is a file, not a folder: fix the path or move the file away.',
    message: byCase({
      linkLoop: (shown: string) => `The output folder "${shown}" leads through a loop of symbolic links.`,
      file: (shown: string, file: string) => `The output folder "${shown}" leads through ${file}, which is a file.`,
    }),
  },
  OutDirNotOwned: {
    title: '--out holds files the build did not write',
    hint: 'Use a new or empty folder, or pass --empty-out-dir once to let the build replace its contents (.git, CNAME and .nojekyll are kept).',
    /** `entries`: what the folder holds; the first five are named. */
    message: (shown: string, outDir: string, entries: readonly string[]) =>
      `The output folder "${shown}" (${outDir}) holds files the build did not write (${entries.slice(0, 5).join(', ') + (entries.length > 5 ? `, … (${entries.length} entries)` : '')}); it is left as it is.`,
  },
  OutDirLocked: {
    title: 'Another build holds the output folder',
    hint: 'Wait for the other build to finish, or build into another folder with --out.',
    message: byCase({
      gaveUp: (holder: number, outDir: string) =>
        `Another build (process ${holder}) is writing into ${outDir}; gave up waiting for it.`,
      notTaken: (lockFile: string) => `Could not take the lock ${lockFile}.`,
    }),
  },
  OutDirNotWritable: {
    title: 'The output folder cannot be written',
    hint: 'Check that the folder that holds the output exists and is writable, or choose another with --out.',
    message: byCase({
      unreachable: (shown: string, reason: string) => `The output folder "${shown}" cannot be reached: ${reason}`,
      parentNotCreated: (parent: string, reason: string) =>
        `Could not create ${parent}, the folder to hold the output: ${reason}`,
      lockNotCreated: (lockFile: string, reason: string) =>
        `Could not create ${lockFile} beside the output folder: ${reason}`,
      stagingNotCreated: (staging: string, reason: string) =>
        `Could not create the staging folder ${staging}: ${reason}`,
      publicNotCopied: (outDir: string, reason: string, staging: string) =>
        `Could not copy the public files for ${stagingGone(outDir, reason, staging)}`,
      siteNotWritten: (outDir: string, reason: string, staging: string) =>
        `Could not write the site for ${stagingGone(outDir, reason, staging)}`,
    }),
  },
  OutputSwapFailed: {
    title: 'The new output could not be swapped in',
    hint: 'Check that nothing else (an editor, a server, a sync tool) holds files in the output folder, then build again.',
    message: (outDir: string, reason: string) => `Could not put the new site in place of ${outDir}: ${reason}`,
  },
  OutDirIsMountPoint: {
    title: '--out is a mount point',
    hint: 'Build into a folder inside it (for example --out dist/site), or mount the folder above it: the build swaps the output folder in by renaming it, which a mount point cannot be.',
    message: (shown: string, outDir: string) =>
      `The output folder "${shown}" (${outDir}) is a mount point (a volume, tmpfs or bind mount), which cannot be replaced.`,
  },
  HeaderInvalid: {
    title: 'A response header cannot be written for every host',
    hint: "Fix the header in the site's headers() (site/index.tsx): a name of letters, digits and hyphens, a value on one line without `$` (nginx would read it as a variable).",
    message: (name: string, value: string) =>
      `The header ${JSON.stringify(name)}: ${JSON.stringify(value)} cannot be written for nginx and _headers.`,
  },
  EditorPackageMissing: {
    title: 'The content editor needs a package that is not installed',
    hint: 'Install both in the site (npm install decap-cms decap-server: ssg does not install them, so a site without the editor has none), or remove `editor` from defineSite. docs/editor.md says how to install them without npm warnings.',
    message: (name: string) => `The site has an editor (\`editor\` in defineSite), and ${name} is not installed.`,
  },
  SearchInvalid: {
    title: 'The search option cannot be used',
    hint: "Fix `search` in the site's definition (site/index.tsx): `{ indexed: ['/news/:slug'], pages: ['/news'] }`, each a path of its routes.",
    message: byCase({
      notObject: () => 'search must be an object with `indexed` and `pages`.',
      unknownField: (field: string) =>
        `search has a field ${JSON.stringify(field)} it does not know; it takes indexed, pages and language.`,
      notList: (field: string) => `search.${field} must be a list of at least one route path, such as '/news/:slug'.`,
      unknownRoute: (field: string, route: string) =>
        `search.${field} names ${JSON.stringify(route)}, which is not the path of any route of the site.`,
      language: (language: string) =>
        `search.language is ${JSON.stringify(language)}; give a language code such as "en" or "pt-br".`,
    }),
  },
  SearchIndexFailed: {
    title: 'The search index could not be made',
    hint: 'Reinstall the packages (npm ci) so that Pagefind and its binary for this platform are there, then build again.',
    message: (reason: string) => `Pagefind could not index the pages: ${reason}`,
  },
  TagInvalid: {
    title: 'A tag makes no URL',
    hint: 'Give each tag in "tags:" as text with at least one letter or digit, for example tags: [release, guide].',
    message: byCase({
      notAList: (tags: unknown) => `In its front matter, "tags" is ${JSON.stringify(tags)}, not a list.`,
      notText: (tag: unknown) => `In its front matter, the tag ${JSON.stringify(tag)} is not text.`,
      noLetters: (tag: string) =>
        `In its front matter, the tag ${JSON.stringify(tag)} has no letters or digits to make its URL from.`,
    }),
  },
  ImageMissing: {
    title: 'An image is missing',
    hint: 'Put the image beside the article (./name.png in its folder) or in site/public (/name.png), or fix the path.',
    message: byCase({
      notFound: (url: string, lookedFor: string) => `The image "${url}" does not exist (looked for ${lookedFor}).`,
      notInPublicFolder: (publicPath: string) => `The image "${publicPath}" is not a path in the public folder.`,
      outside: (url: string, folder: string) => `The image "${url}" is outside ${folder || '.'}.`,
      invalidPath: (url: string) => `The image path "${url}" is not a valid URL path.`,
      noFileName: (url: string) => `The image "${url}" has no file name.`,
    }),
  },
  ImageAltMissing: {
    title: 'An image has no alt text',
    hint: 'Describe the image in the brackets: ![What it shows](./name.png); for a purely decorative image write ![""](./name.png).',
    message: (url: string) => `The image "${url}" has no alt text.`,
  },
  ImageRemote: {
    title: 'An image comes from another origin',
    hint: 'Save the image beside the article and link it as ./name.png: the site only shows images from its own origin.',
    message: (url: string) =>
      `The image "${url}" is on another origin; the site's Content-Security-Policy (img-src 'self') blocks it.`,
  },
  ImageUnreadable: {
    title: 'An image cannot be read',
    hint: 'Replace the file with a valid PNG, JPEG, WebP, AVIF, GIF or SVG image (export it again from the editor).',
    message: byCase({
      notRead: (reason: string) => `The image cannot be read: ${reason}.`,
      notDecoded: (reason: string) => `The image cannot be read: ${reason} (is it really an image?).`,
      noSize: () => 'The image cannot be read: it has no width or height.',
      notWebFormat: (format: string | undefined) => `The image cannot be read: "${format}" is not a web image format.`,
      notEncoded: (reason: string) => `The image cannot be read: ${reason} (the file may be damaged or cut off).`,
      formatNotShown: (extension: string) =>
        `"${extension}" is not an image format the site shows (PNG, JPEG, WebP, AVIF, GIF, TIFF, SVG).`,
    }),
  },
  ImageDataClash: {
    title: 'A data file has the name the images use',
    hint: 'Rename the data file: the pages receive the processed images under this name.',
    message: (key: string) => `This data file clashes with the processed images the pages receive as data.${key}.`,
  },
  ImageTooLarge: {
    title: 'An image is too large',
    hint: 'Scale the image down (a few thousand pixels wide is plenty for the web) and save it again.',
    message: (width: number, height: number, maxPixels: number) =>
      `The image is ${width}×${height} pixels, more than the ${maxPixels.toLocaleString('en')} allowed.`,
  },
  MarkdownPluginFailed: {
    title: 'A Markdown plugin of the site failed',
    hint: "If the message names something in the article the plugin cannot handle, change the article; else fix the plugin's options in the site's markdown settings (site/index.tsx), or remove the plugin.",
    message: (plugin: string, reason: string) => `The plugin ${plugin} failed: ${reason}`,
  },
  MarkdownPluginInvalid: {
    title: 'A Markdown plugin of the site is not a plugin',
    hint: 'Each entry of markdown.remarkPlugins and markdown.rehypePlugins is a plugin (the function a package exports) or [plugin, options], as in Astro.',
    message: (where: string) => `${where} is not a plugin or [plugin, options].`,
  },
  ArticleEndedHelper: {
    title: 'An article ended the process converting it',
    hint: 'An MDX article, a component it imports or a Markdown plugin ended the process (process.exit, a crash of Node): remove that code. If nothing in it does, build again.',
    message: (how: string) => `The helper process converting this article ended (${how}) while converting it.`,
  },
  MarkdownHelperEnded: {
    title: 'A helper process of the build ended before it finished',
    hint: 'Build again. If it ends again, the machine may have run out of memory (see its system log) or something stopped the process.',
    message: (how: string, files: readonly string[], doing: 'converting' | 'drawing' = 'converting') =>
      `A helper process ${doing === 'drawing' ? 'drawing generated files' : 'converting articles'} ended (${how}) while ${doing} ${files[0]}${files.length > 1 ? ` and ${files.length - 1} more` : ''}.`,
  },
  GeneratedFileClash: {
    title: 'A generated file has the path of a page, another built file or a folder they need',
    hint: "Give the file another path in the site's files() or feed() (site/index.tsx), or the page another route: one of the two would be lost.",
    /** `named`: how the file is named, for example "The feed /news/feed.xml". */
    message: byCase({
      samePath: (named: string, other: string) => `${named} has the same path as ${other}.`,
      whereAFolderIs: (named: string, folderFor: string) =>
        `${named} is where the build needs a folder, for /${folderFor}.`,
      insideAFile: (named: string, file: string) => `${named} is inside /${file}, which the build writes as a file.`,
      twice: (path: string) => `Two generated files are both ${path}.`,
    }),
  },
  PublicFileClash: {
    title: 'A public file has the path of a built file or of a folder the build needs',
    hint: 'Rename or remove the public file; the page or asset of that path is made by the build.',
    message: byCase({
      samePath: (file: string) => `The public file ${file} has the same path as a generated file.`,
      whereAFolderIs: (file: string, folderFor: string) =>
        `The public file ${file} is where the build needs a folder, for ${folderFor}.`,
      insideAFile: (file: string, builtFile: string) =>
        `The public file ${file} is inside ${builtFile}, which the build writes as a file.`,
      folderWhereAFileIs: (folder: string) => `The public folder ${folder} is where the build writes a file.`,
    }),
  },
  ArticleUnreadable: {
    title: 'An article cannot be read',
    hint: 'Check that the file is readable, or move it out of the content folder.',
    message: byCase({
      folder: (reason: string) => `The articles folder cannot be read: ${reason}`,
      article: (reason: string) => `The article cannot be read: ${reason}`,
    }),
  },
  LinkBroken: {
    title: 'A link leads nowhere',
    hint: 'Fix the link, or add the page or file it points to.',
    message: (page: string, link: string, otherPages = 0) =>
      `${onPages(page, otherPages)} to ${link}, which no route or public file provides.`,
  },
  LinkToHeldBack: {
    title: 'A link leads to an article this build leaves out',
    hint: (_page: string, _link: string, reason: 'draft' | 'future') =>
      reason === 'draft'
        ? 'Publish it (draft: false), or remove the link until it is published; a build with --drafts shows both (drafts carry noindex).'
        : 'Give it a date that has come, or remove the link until its date; a build with --future shows both.',
    message: (page: string, link: string, reason: 'draft' | 'future', file: string, date: string, otherPages = 0) =>
      reason === 'draft'
        ? `${onPages(page, otherPages)} to ${link}, which is a draft (${file}); build with --drafts to include it.`
        : `${onPages(page, otherPages)} to ${link}, which is dated ${date} (${file}), after the build time; build with --future to include it.`,
  },
  LinkFragmentMissing: {
    title: 'A link points to a heading that does not exist',
    hint: 'Link to a heading that exists (its id is shown by the # after it), or fix the heading.',
    message: (page: string, link: string, target: string, id: string, otherPages = 0) =>
      `${onPages(page, otherPages)} to ${link}, but ${target} has no element with the id "${id}".`,
  },
  ServeConfigInvalid: {
    title: 'A server setting is missing or wrong',
    /** `problem`: one sentence without a full stop naming the variable (src/server/settings.ts words them). */
    message: byCase({
      setting: (variable: string, problem: string) => `${problem}.`,
      trustProxy: (reason: string) => `TRUST_PROXY ${reason}.`,
    }),
    hint: byCase({
      setting: (variable: string, _problem: string) =>
        `Set ${variable} in the environment; docs/contact-endpoint.md lists every variable.`,
      trustProxy: (_reason: string) =>
        'Use false, true (one proxy in front), a hop count, or a list such as "loopback" or "10.0.0.0/8,cloudflare"; docs/contact-endpoint.md explains each.',
    }),
  },
  DataDirUnwritable: {
    title: 'The data folder cannot be written',
    hint: 'Point DATA_DIR at a folder the server may write to, or fix its owner and permissions.',
    /** `code`: the system's or SQLite's error code. */
    message: byCase({
      folder: (code: string) => `The data folder cannot be written to (${code}).`,
      inbox: (code: string) => `The inbox in this folder cannot be opened for writing (${code}).`,
    }),
  },
  InboxDamaged: {
    title: 'The inbox is not a SQLite database or is damaged',
    hint: 'Move the file aside (keep it: it may hold messages) and start again to create a new inbox.',
    message: (code: string) => `inbox.sqlite in this folder is not a SQLite database or is damaged (${code}).`,
  },
  PagesSettingInvalid: {
    title: 'A setting of the Pages Function is missing or wrong',
    hint: "Set it in the Pages project's environment variables (Settings → Variables and Secrets), then deploy again.",
    /** `problem`: one sentence naming the variable, without a full stop. */
    message: (problem: string) =>
      `${problem}, in the Pages project's environment variables. The route answers 503 until it is set.`,
  },
  PagesBindingMissing: {
    title: 'A binding the Pages Function needs is missing',
    hint: (name: string, kind: string) =>
      `Bind the ${kind} as ${name} (Settings → Bindings, or wrangler.toml), then deploy again; docs/deploy-cloudflare-pages.md gives the commands.`,
    message: (name: string, kind: string) =>
      `The ${kind} binding ${name} is missing, so no message can be stored: the route answers 503 until it is bound.`,
  },
  DataDirInUse: {
    title: 'Another server uses the data folder',
    hint: 'Stop the other server first, or give this one its own DATA_DIR.',
    message: () => 'Another "ssg serve" is already using this data folder.',
  },
  ApiRouteCompileFailed: {
    title: 'An API route does not compile',
    hint: 'Fix the API route at the line shown.',
    message: compileFailure,
  },
  ApiRouteInvalid: {
    title: 'An API route file exports no route',
    hint: 'Default-export defineApiRoute({ create(services) { return handler; } }) from the file (import it from "ssg/server").',
    message: (file: string) => `${file} does not default-export an API route.`,
  },
  ApiRouteThrew: {
    title: 'An API route threw while loading or setting up',
    hint: 'Fix the code at the file and line shown; run with --verbose for the stack trace.',
    message: threw,
  },
  InboxUnreadable: {
    title: 'The inbox cannot be read',
    hint: "Check --data-dir (or DATA_DIR) names the folder ssg serve keeps its inbox in, and the file's permissions; a damaged inbox: move it aside, keep it, and let serve create a new one. The file was left as it is.",
    message: (code: string, reason: string) => `The inbox cannot be read (${code}): ${reason}.`,
  },
  SiteModuleThrew: {
    title: 'Site code threw while loading',
    hint: 'Fix the code at the file and line shown (code at the top of a module runs when the site is loaded); run with --verbose for the stack trace.',
    message: threw,
  },
  RouteEntriesFailed: {
    title: "A route's entries() threw",
    hint: 'Fix entries() at the file and line shown; run with --verbose for the stack trace.',
    message: threw,
  },
  GeneratedFileFailed: {
    title: 'Drawing a generated file failed',
    hint: "Fix the site's files() or the render() it returns (site/index.tsx) at the file and line shown, or the file it names; run with --verbose for the stack trace.",
    message: threw,
  },
  GeneratedFileSourceInvalid: {
    title: 'A file named in content cannot be used',
    hint: 'Fix the content file named (or the file it points to), as the message says; run with --verbose for the stack trace.',
    message: (drawn: string, reason: string) => `${drawn} could not be made: ${reason}`,
  },
  GeneratedFileDrawerUnknown: {
    title: 'A generated file says no way to draw it the site has',
    hint: "Give each file of the site's files() (site/index.tsx) either render() or draw: { drawer, input } naming one of the site's drawers.",
    message: byCase({
      none: (path: string) => `${path} has neither render() nor draw.`,
      unknown: (path: string, drawer: string, known: readonly string[]) =>
        `${path} is to be drawn by ${JSON.stringify(drawer)}, which the site's drawers do not hold (${known.length ? `it has ${known.map((name) => JSON.stringify(name)).join(', ')}` : 'it has none'}).`,
    }),
  },
  GeneratedFileNotBytes: {
    title: 'A generated file was drawn as something other than bytes',
    hint: "Make the render() of the file in the site's files() (site/index.tsx) resolve to the file's bytes: a Uint8Array or a Buffer.",
    message: (path: string, drawn: unknown) =>
      `Drawing ${path} gave ${drawn === null ? 'null' : typeof drawn}, not the file's bytes (a Uint8Array or Buffer).`,
  },
  PortInUse: {
    title: 'The port is in use',
    hint: 'Stop what uses it, or pick another port with --port (PORT for serve).',
    message: (port: number, host: string) => `Port ${port} on ${host} is in use.`,
  },
  PortNotPermitted: {
    title: 'The port may not be used',
    hint: 'Ports below 1024 need privileges: pick a port of 1024 or more with --port (PORT for serve).',
    message: (port: number, host: string) => `Listening on ${host}:${port} is not permitted.`,
  },
  HostUnavailable: {
    title: 'The address is not on this machine',
    hint: 'Set HOST to an address of this machine, such as 127.0.0.1 or 0.0.0.0.',
    message: (port: number, host: string) => `${host} is not an address this machine can listen on (port ${port}).`,
  },
  SiteDirMissing: {
    title: 'There is no built site',
    hint: 'Build the site first ("npx ssg build"; "npm run build" in this repository). Or point --dir (or SITE_DIR for serve) at the built site.',
    message: (dir: string) => `There is no built site in ${dir}.`,
  },
  SqliteMissing: {
    title: 'better-sqlite3 is not installed',
    hint: "Install it in the site (npm install better-sqlite3), and list it in package.json's allowScripts so that its install script builds it (npm rebuild better-sqlite3 builds it afterwards): ssg serve and ssg inbox keep the inbox with it; init, build, dev and preview do not need it.",
    message: (why?: 'noBinding') =>
      why === 'noBinding'
        ? 'better-sqlite3 is installed without its compiled part (its install script did not run).'
        : 'This command needs better-sqlite3, which is not installed.',
  },
  InitFolderMissing: {
    title: 'No folder was given for the new site',
    hint: 'Name the folder to create the site in, for example: ssg init my-site (or ssg init . for the current folder, if it is empty).',
    message: () => 'The folder name is empty.',
  },
  InitFolderNotEmpty: {
    title: 'The folder for the new site is not empty',
    hint: 'Give ssg init a folder that does not exist yet, or an empty one: it never writes over anything.',
    message: (folder: string, found?: string) =>
      `"${folder}" already exists and is not an empty folder${found ? ` (it holds ${found})` : ''}.`,
  },
  RedirectInvalid: {
    title: 'A redirect cannot be written',
    hint: "Fix the redirect in the file named: the site's `redirects` in site/index.tsx, or `aliases` / `redirect_from` in an article's front matter.",
    message: byCase({
      source: (from: string) =>
        `The redirect source ${JSON.stringify(from)} is not a path on the site: write it as /folder/page, with letters, digits, "-", "_", "." and "~".`,
      destination: (from: string, to: string) =>
        `The redirect from ${from} goes to ${JSON.stringify(to)}, which is neither a path on the site (/news/hello) nor an http(s) address without spaces or quotes (percent-encode other characters: %C3%A9 for é).`,
      status: (from: string, status: string) =>
        `The redirect from ${from} has the status ${status}; use 301 (moved for good, the default), 302, 303, 307 or 308.`,
      twice: (from: string, earlier: string) =>
        `${from} is redirected twice, here and in ${earlier}, to different places: keep one.`,
      isPage: (from: string) =>
        `${from} is redirected, but it is a page or file of the site (or one whose name differs only in case): a redirect would hide it. Remove the redirect or the page.`,
      publicFile: () =>
        `site/public/_redirects is written by hand and the site declares redirects too: keep the rules in one place (move them into redirects, or remove those).`,
      nowhere: (from: string, to: string) =>
        `The redirect from ${from} goes to ${to}, which is no page or file of the site.`,
      loop: (chain: string) => `The redirects loop: ${chain}.`,
      noPage: (from: string) =>
        `The article names earlier addresses (${from}), but no page of the site shows it to redirect them to.`,
    }),
  },
  InitFailed: {
    title: 'The new site could not be written',
    hint: 'Check that the folder above it exists and may be written to, then run ssg init again.',
    message: (folder: string, reason: string) => `Could not write the new site into "${folder}": ${reason}`,
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof errorCatalogue;

/** Failures of what the user asked for rather than of the build: the CLI exits 2 on these. */
export const usageErrorCodes: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'ProjectRootMissing',
  'BuildWatchUnknown',
  'OutDirEmpty',
  'OutDirInvalid',
  'OutDirContainsProject',
  'OutDirInSources',
  'OutDirIsFile',
  'OutDirIsMountPoint',
  'OutDirThroughFile',
  'OutDirNotOwned',
  'InitFolderNotEmpty',
  'InitFolderMissing',
]);
