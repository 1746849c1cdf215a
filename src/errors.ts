/**
 * The catalogue of expected errors. Each has a permanent code, a message saying what happened
 * and a hint saying what to do. Anything else that escapes is a bug and is shown with its stack.
 */
export const errorCatalogue = {
  FrontMatterUnclosed: 'Add a line with three dashes (---) after the front matter.',
  FrontMatterInvalidYaml: 'Fix the YAML between the two --- lines.',
  FrontMatterNotMapping: 'Front matter must be key: value pairs, for example "title: Hello".',
  ArticleSlugInvalid:
    'Rename the file to lowercase letters, digits and single hyphens, for example "my-first-post.md".',
  ArticleSlugDuplicate: 'Rename one of the files: each article needs its own file name.',
  DataInvalidYaml: 'Fix the YAML syntax in this file.',
  DataSchemaMismatch: 'Correct the fields listed above.',
  SiteConfigMissing: 'Create content/site.yaml with at least "baseUrl: https://example.com".',
  BaseUrlInvalid: 'Use an absolute origin such as https://example.com (in content/site.yaml or --base-url).',
  TemplateMissing: 'Create templates/document.html with <!--ssg:head--> and <!--ssg:body--> markers.',
  TemplateMarkerMissing: 'Add the missing marker to the document shell.',
  SiteDefinitionInvalid: 'site/index.tsx must default-export defineSite({ routes: [...] }).',
  SiteCompileFailed: 'Fix the syntax error shown above.',
  ClientCompileFailed: 'Fix the syntax error shown above.',
  RouteInvalid: 'Check the route table in site/index.tsx.',
  RouteDuplicate: 'Each output path may be produced by one route only.',
  PageRenderFailed: 'Fix the component so it renders; run with --verbose for the stack trace.',
  IslandUnknown: 'Create site/islands/<name>.tsx, or use the name of an existing island.',
  OutputFailed: 'Check that the output folder is writable and not in use.',
  CacheUnusable: 'Move the file out of the way (or delete .cache: it only makes the next build slower).',
  ProjectRootMissing: 'Give -C the folder that holds content/, site/ and templates/, or run from inside it.',
  OutDirEmpty: 'Give --out a folder name such as "dist"; if a script passes a variable, check that it is set.',
  OutDirInvalid: 'Give --out a plain folder path, such as "dist" or "../site-output".',
  OutDirContainsProject: 'Give --out a folder of its own, such as "dist"; the build replaces the whole folder.',
  OutDirInSources: 'Give --out a folder outside the sources, such as "dist".',
  OutDirIsFile: 'Give --out a folder, not a file, or move the file away.',
  OutDirThroughFile: 'Part of the --out path is a file, not a folder: fix the path or move the file away.',
  OutDirNotOwned:
    'Use a new or empty folder, or pass --empty-out-dir once to let the build replace its contents (.git, CNAME and .nojekyll are kept).',
  OutDirLocked: 'Wait for the other build to finish, or build into another folder with --out.',
  OutDirNotWritable: 'Check that the folder that holds the output exists and is writable, or choose another with --out.',
  OutputSwapFailed: 'Check that nothing else (an editor, a server, a sync tool) holds files in the output folder, then build again.',
  PublicFileClash: 'Rename or remove the public file; the page or asset of that path is made by the build.',
  ArticleUnreadable: 'Check that the file is readable, or move it out of the content folder.',
  LinkBroken: 'Fix the link, or add the page or file it points to.',
  ImageMissing: 'Put the image beside the article (./name.png in its folder) or in site/public (/name.png), or fix the path.',
  ImageAltMissing: 'Describe the image in the brackets: ![What it shows](./name.png); for a purely decorative image write ![""](./name.png).',
  ImageRemote: 'Save the image beside the article and link it as ./name.png: the site only shows images from its own origin.',
  ImageUnreadable: 'Replace the file with a valid PNG, JPEG, WebP, AVIF, GIF or SVG image (export it again from the editor).',
  ImageDataClash: 'Rename the data file: the pages receive the processed images under this name.',
  ImageTooLarge: 'Scale the image down (a few thousand pixels wide is plenty for the web) and save it again.',
  ServeConfigInvalid: 'Set the variable in the environment; the README lists every one.',
  DataDirUnwritable: 'Point DATA_DIR at a folder the server may write to, or fix its owner and permissions.',
  DataDirInUse: 'Stop the other server first, or give this one its own DATA_DIR.',
} as const;

export type ErrorCode = keyof typeof errorCatalogue;

/** Failures of what the user asked for rather than of the build: the CLI exits 2 on these. */
export const usageErrorCodes: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'ProjectRootMissing',
  'OutDirEmpty',
  'OutDirInvalid',
  'OutDirContainsProject',
  'OutDirInSources',
  'OutDirIsFile',
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
    this.hint = options?.hint ?? errorCatalogue[code];
  }

  /** `path/to/file:3:7` or just the path, relative paths as given. */
  get where(): string | undefined {
    if (!this.file) return undefined;
    if (this.line === undefined) return this.file;
    return this.column === undefined ? `${this.file}:${this.line}` : `${this.file}:${this.line}:${this.column}`;
  }
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
