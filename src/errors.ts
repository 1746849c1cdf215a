/**
 * The catalogue of expected errors, as Astro's errors-data: each failure has a permanent name (the
 * key, printed as `[Name]`), a title saying what went wrong in general, a hint saying what to do,
 * and for some a message made from the details. Distinct failures have distinct names. Anything
 * else that escapes is a bug of the generator and is shown with its stack.
 */
export const errorCatalogue = {
  FrontMatterUnclosed: { title: 'The front matter has no closing line', hint: 'Add a line with three dashes (---) after the front matter.' },
  FrontMatterInvalidYaml: { title: 'The front matter is not valid YAML', hint: 'Fix the YAML between the two --- lines.' },
  FrontMatterFieldInvalid: { title: 'A front matter field is wrong', hint: 'Fix the field on the line named; README.md ("News articles") lists every field and its type.' },
  FrontMatterNotMapping: { title: 'The front matter is not key: value pairs', hint: 'Front matter must be key: value pairs, for example "title: Hello".' },
  ArticleSlugInvalid: { title: 'The file name is not a URL slug', hint: 'Rename the file to lowercase letters, digits and single hyphens, for example "my-first-post.md".' },
  ArticleSlugDuplicate: { title: 'Two articles have one slug', hint: 'Rename one of the files: each article needs its own file name.' },
  DataInvalidYaml: { title: 'A data file is not valid YAML', hint: 'Fix the YAML syntax in this file.' },
  DataSchemaMismatch: { title: 'A data file does not match its schema', hint: 'Correct the fields listed above.' },
  SiteConfigMissing: { title: 'There is no content/site.yaml', hint: 'Create content/site.yaml with at least "baseUrl: https://example.com".' },
  BaseUrlInvalid: { title: 'The base URL is not an absolute origin', hint: 'Use an absolute origin such as https://example.com (in content/site.yaml or --base-url).' },
  TemplateMissing: { title: 'There is no document shell', hint: 'Create templates/document.html with <!--ssg:head--> and <!--ssg:body--> markers.' },
  TemplateMarkerMissing: { title: 'The document shell lacks a marker', hint: 'Add the missing marker to the document shell.' },
  SiteDefinitionInvalid: { title: 'The route table is missing or malformed', hint: 'site/index.tsx must default-export defineSite({ routes: [...] }).' },
  SiteCompileFailed: { title: 'The site code does not compile', hint: 'Fix the syntax error shown above.' },
  ClientCompileFailed: { title: 'The browser code does not compile', hint: 'Fix the syntax error shown above.' },
  RouteInvalid: { title: 'A route is malformed', hint: 'Check the route table in site/index.tsx.' },
  RouteDuplicate: { title: 'Two routes write one path', hint: 'Each output path may be produced by one route only.' },
  PageRenderFailed: { title: 'A page threw while rendering', hint: 'Fix the component so it renders; run with --verbose for the stack trace.' },
  IslandUnknown: { title: 'A page uses an island that has no file', hint: 'Create site/islands/<name>.tsx, or use the name of an existing island.' },
  CacheUnusable: { title: 'A cache file cannot be used', hint: 'Move the file out of the way (or delete .cache: it only makes the next build slower).' },
  ProjectRootMissing: { title: 'The site folder does not exist', hint: 'Give -C the folder that holds content/, site/ and templates/, or run from inside it.' },
  OutDirEmpty: { title: '--out is empty', hint: 'Give --out a folder name such as "dist"; if a script passes a variable, check that it is set.' },
  OutDirInvalid: { title: '--out is not a folder path', hint: 'Give --out a plain folder path, such as "dist" or "../site-output".' },
  OutDirContainsProject: { title: '--out holds the project', hint: 'Give --out a folder of its own, such as "dist"; the build replaces the whole folder.' },
  OutDirInSources: { title: '--out is inside the sources', hint: 'Give --out a folder outside the sources, such as "dist".' },
  OutDirIsFile: { title: '--out is a file', hint: 'Give --out a folder, not a file, or move the file away.' },
  OutDirThroughFile: { title: '--out goes through a file', hint: 'Part of the --out path is a file, not a folder: fix the path or move the file away.' },
  OutDirNotOwned: { title: '--out holds files the build did not write', hint: 'Use a new or empty folder, or pass --empty-out-dir once to let the build replace its contents (.git, CNAME and .nojekyll are kept).' },
  OutDirLocked: { title: 'Another build holds the output folder', hint: 'Wait for the other build to finish, or build into another folder with --out.' },
  OutDirNotWritable: { title: 'The output folder cannot be written', hint: 'Check that the folder that holds the output exists and is writable, or choose another with --out.' },
  OutputSwapFailed: { title: 'The new output could not be swapped in', hint: 'Check that nothing else (an editor, a server, a sync tool) holds files in the output folder, then build again.' },
  OutDirIsMountPoint: { title: '--out is a mount point', hint: 'Build into a folder inside it (for example --out dist/site), or mount the folder above it: the build swaps the output folder in by renaming it, which a mount point cannot be.' },
  HeaderInvalid: { title: 'A response header cannot be written for every host', hint: "Fix the header in the site's headers() (site/index.tsx): a name of letters, digits and hyphens, a value on one line without `$` (nginx would read it as a variable)." },
  TagInvalid: { title: 'A tag makes no URL', hint: 'Give each tag in "tags:" as text with at least one letter or digit, for example tags: [staking, ethereum].' },
  ImageMissing: { title: 'An image is missing', hint: 'Put the image beside the article (./name.png in its folder) or in site/public (/name.png), or fix the path.' },
  ImageAltMissing: { title: 'An image has no alt text', hint: 'Describe the image in the brackets: ![What it shows](./name.png); for a purely decorative image write ![""](./name.png).' },
  ImageRemote: { title: 'An image comes from another origin', hint: 'Save the image beside the article and link it as ./name.png: the site only shows images from its own origin.' },
  ImageUnreadable: { title: 'An image cannot be read', hint: 'Replace the file with a valid PNG, JPEG, WebP, AVIF, GIF or SVG image (export it again from the editor).' },
  ImageDataClash: { title: 'A data file has the name the images use', hint: 'Rename the data file: the pages receive the processed images under this name.' },
  ImageTooLarge: { title: 'An image is too large', hint: 'Scale the image down (a few thousand pixels wide is plenty for the web) and save it again.' },
  GeneratedFileClash: { title: 'A generated file has the path of a page, another built file or a folder they need', hint: "Give the file another path in the site's files() or feed() (site/index.tsx), or the page another route: one of the two would be lost." },
  PublicFileClash: { title: 'A public file has the path of a built file or of a folder the build needs', hint: 'Rename or remove the public file; the page or asset of that path is made by the build.' },
  ArticleUnreadable: { title: 'An article cannot be read', hint: 'Check that the file is readable, or move it out of the content folder.' },
  LinkBroken: { title: 'A link leads nowhere', hint: 'Fix the link, or add the page or file it points to.' },
  LinkFragmentMissing: { title: 'A link points to a heading that does not exist', hint: 'Link to a heading that exists (its id is shown by the # after it), or fix the heading.' },
  ServeConfigInvalid: { title: 'A server setting is missing or wrong', hint: 'Set the variable in the environment; the README lists every one.' },
  DataDirUnwritable: { title: 'The data folder cannot be written', hint: 'Point DATA_DIR at a folder the server may write to, or fix its owner and permissions.' },
  DataDirInUse: { title: 'Another server uses the data folder', hint: 'Stop the other server first, or give this one its own DATA_DIR.' },
  ApiRouteCompileFailed: { title: 'An API route does not compile', hint: 'Fix the syntax error shown above in the API route.' },
  ApiRouteInvalid: { title: 'An API route file exports no route', hint: 'Default-export defineApiRoute({ create(services) { return handler; } }) from the file (import it from "ssg/server").' },
  ApiRouteThrew: { title: 'An API route threw while loading or setting up', hint: 'Fix the code at the file and line shown; run with --verbose for the stack trace.' },
  InboxUnreadable: { title: 'The inbox cannot be read', hint: 'Check --data-dir (or DATA_DIR) names the folder ssg serve keeps its inbox in, and the file\'s permissions; a damaged inbox: move it aside, keep it, and let serve create a new one. The file was left as it is.' },
  SiteModuleThrew: { title: 'Site code threw while loading', hint: 'Fix the code at the file and line shown (code at the top of a module runs when the site is loaded); run with --verbose for the stack trace.' },
  RouteEntriesFailed: { title: "A route's entries() threw", hint: 'Fix entries() at the file and line shown; run with --verbose for the stack trace.' },
  GeneratedFileFailed: { title: 'Drawing a generated file failed', hint: "Fix the site's files() or the render() it returns (site/index.tsx) at the file and line shown, or the file it names; run with --verbose for the stack trace." },
  PortInUse: { title: 'The port is in use', hint: 'Stop what uses it, or pick another port with --port (PORT for serve).', message: (port: number, host: string) => `Port ${port} on ${host} is in use.` },
  PortNotPermitted: { title: 'The port may not be used', hint: 'Ports below 1024 need privileges: pick a port of 1024 or more with --port (PORT for serve).', message: (port: number, host: string) => `Listening on ${host}:${port} is not permitted.` },
  HostUnavailable: { title: 'The address is not on this machine', hint: 'Set HOST to an address of this machine, such as 127.0.0.1 or 0.0.0.0.', message: (port: number, host: string) => `${host} is not an address this machine can listen on (port ${port}).` },
  SiteDirMissing: { title: 'There is no built site', hint: 'Run "npm run build" first. Or point --dir (or SITE_DIR for serve) at the built site.', message: (dir: string) => `There is no built site in ${dir}.` },
} as const satisfies Record<string, CatalogueEntry>;

/** One failure of the catalogue. */
export interface CatalogueEntry {
  title: string;
  hint: string;
  /** The message, from the details of one occurrence. */
  message?: (...details: never[]) => string;
}

export type ErrorCode = keyof typeof errorCatalogue;

/** Failures of what the user asked for rather than of the build: the CLI exits 2 on these. */
export const usageErrorCodes: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'ProjectRootMissing',
  'OutDirEmpty',
  'OutDirInvalid',
  'OutDirContainsProject',
  'OutDirInSources',
  'OutDirIsFile',
  'OutDirIsMountPoint',
  'OutDirThroughFile',
  'OutDirNotOwned',
]);

export function isUsageError(error: unknown): boolean {
  return error instanceof SsgError && usageErrorCodes.has(error.code);
}

export interface ErrorLocation {
  file?: string;
  line?: number;
  column?: number;
}

export class SsgError extends Error {
  readonly code: ErrorCode;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly hint: string;

  constructor(code: ErrorCode, message: string, location: ErrorLocation = {}, options?: { cause?: unknown; hint?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SsgError';
    this.code = code;
    this.file = location.file;
    this.line = location.line;
    this.column = location.column;
    this.hint = options?.hint ?? errorCatalogue[code].hint;
  }

  /** `path/to/file:3:7` or just the path, relative paths as given. */
  get where(): string | undefined {
    if (!this.file) return undefined;
    if (this.line === undefined) return this.file;
    return this.column === undefined ? `${this.file}:${this.line}` : `${this.file}:${this.line}:${this.column}`;
  }
}

type Details<Code extends ErrorCode> = (typeof errorCatalogue)[Code] extends { message: (...details: infer D) => string } ? D : never;

/** An error of a catalogue entry that makes its own message from the details. */
export function catalogueError<Code extends ErrorCode>(
  code: Code,
  details: Details<Code>,
  location: ErrorLocation = {},
  options?: { cause?: unknown; hint?: string },
): SsgError {
  const entry = errorCatalogue[code] as CatalogueEntry;
  const message = entry.message ? (entry.message as (...args: unknown[]) => string)(...details) : entry.title;
  return new SsgError(code, message, location, options);
}

/** Several problems found in one pass (all bad fields of a file, all broken links) reported at once. */
export class SsgErrorList extends Error {
  readonly errors: SsgError[];
  constructor(errors: SsgError[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'SsgErrorList';
    this.errors = errors;
  }
}

export function isExpectedError(error: unknown): error is SsgError | SsgErrorList {
  return error instanceof SsgError || error instanceof SsgErrorList;
}

/** Formats an expected error for the terminal: where, what, and what to do. */
export function formatError(error: SsgError, options: { verbose?: boolean } = {}): string {
  const lines = [`[${error.code}] ${error.where ? `${error.where}: ` : ''}${error.message}`, `  hint: ${error.hint}`];
  if (options.verbose) {
    let cause: unknown = error.cause;
    while (cause) {
      lines.push(`  caused by: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`);
      cause = cause instanceof Error ? cause.cause : undefined;
    }
  }
  return lines.join('\n');
}

export function formatAnyError(error: unknown, options: { verbose?: boolean } = {}): string {
  if (error instanceof SsgErrorList) return error.errors.map((e) => formatError(e, options)).join('\n');
  if (error instanceof SsgError) return formatError(error, options);
  return `Unexpected internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}
