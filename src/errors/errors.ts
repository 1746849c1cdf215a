/**
 * The machinery of the error catalogue (its entries are in src/errors/errors-data.ts): the error an
 * entry makes (`catalogueError`, the only way an SsgError is made), its formatting for the
 * terminal, and its passage between processes and between copies of this module. Anything else
 * that escapes is a bug of the generator and is shown with its stack.
 */
import type { CatalogueEntry } from './error-wording.ts';
import { errorCatalogue, usageErrorCodes, type ErrorCode } from './errors-data.ts';

/** What `catalogueError` takes to word the message of a failure (and its hint, if worded too). */
export type ErrorDetails<Code extends ErrorCode> = Parameters<(typeof errorCatalogue)[Code]['message']>;

/** Compile-time check: every hint that is a function takes the details its message takes. */
type HintTakesDetails = {
  [Code in ErrorCode]: (typeof errorCatalogue)[Code]['hint'] extends string
    ? true
    : (typeof errorCatalogue)[Code]['hint'] extends (...details: ErrorDetails<Code>) => string
      ? true
      : Code;
}[ErrorCode];
const hintsTakeDetails: true = true as HintTakesDetails;
void hintsTakeDetails;

export function isUsageError(error: unknown): boolean {
  return error instanceof SsgError && usageErrorCodes.has(error.code);
}

export interface ErrorLocation {
  file?: string;
  line?: number;
  column?: number;
}

/** Held by this module only: an SsgError's words come from the catalogue (catalogueError). */
const worded: unique symbol = Symbol('worded by the catalogue');

export class SsgError extends Error {
  readonly code: ErrorCode;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly hint: string;

  /** Made by `catalogueError(code, details, location, options)`: the constructor is this module's own. */
  constructor(
    token: typeof worded,
    code: ErrorCode,
    words: { message: string; hint: string },
    location: ErrorLocation = {},
    cause?: unknown,
  ) {
    if (token !== worded)
      throw new TypeError('An SsgError is made by catalogueError(), from an entry of the catalogue.');
    super(words.message, cause === undefined ? undefined : { cause });
    this.name = 'SsgError';
    this.code = code;
    this.file = location.file;
    this.line = location.line;
    this.column = location.column;
    this.hint = words.hint;
  }

  /** What went wrong in general: the catalogue's title for the code. */
  get title(): string {
    return errorCatalogue[this.code].title;
  }

  /** `path/to/file:3:7` or just the path, relative paths as given. */
  get where(): string | undefined {
    if (!this.file) return undefined;
    if (this.line === undefined) return this.file;
    return this.column === undefined ? `${this.file}:${this.line}` : `${this.file}:${this.line}:${this.column}`;
  }
}

function hintOf(code: ErrorCode, details: readonly unknown[]): string {
  const hint = (errorCatalogue[code] as CatalogueEntry).hint;
  return typeof hint === 'string' ? hint : hint(...details);
}

/**
 * The error of a catalogue entry, its message (and hint) worded by the entry from the details:
 * the only way an SsgError is made.
 */
export function catalogueError<Code extends ErrorCode>(
  code: Code,
  details: Readonly<ErrorDetails<Code>>,
  location: ErrorLocation = {},
  options?: { cause?: unknown },
): SsgError {
  const entry = errorCatalogue[code] as CatalogueEntry;
  return new SsgError(
    worded,
    code,
    { message: entry.message(...details), hint: hintOf(code, details) },
    location,
    options?.cause,
  );
}

/**
 * The same problem, told where it shows: at `location` (the article line showing an image), its
 * message naming what it is about (`subject`: the image file, which was its location).
 */
export function problemAt(error: SsgError, location: ErrorLocation, subject: string): SsgError {
  return new SsgError(
    worded,
    error.code,
    { message: `${subject}: ${error.message}`, hint: error.hint },
    location,
    error,
  );
}

/**
 * An SsgError made by another copy of this module (the one bundled into the site's code, met when
 * site code calls a helper of the generator's that throws) as this copy's own: its words came
 * from the same catalogue. Undefined for anything else.
 */
export function adoptBundledSsgError(error: unknown): SsgError | undefined {
  if (!(error instanceof Error) || error.name !== 'SsgError') return undefined;
  const { code, file, line, column, hint } = error as Error & Partial<SsgError>;
  if (typeof code !== 'string' || !Object.hasOwn(errorCatalogue, code)) return undefined;
  const catalogueHint = (errorCatalogue[code] as CatalogueEntry).hint;
  const words = { message: error.message, hint: typeof hint === 'string' ? hint : catalogueHint };
  if (typeof words.hint !== 'string') return undefined;
  return new SsgError(worded, code, words as { message: string; hint: string }, { file, line, column }, error.cause);
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

/**
 * Formats an expected error for the terminal: the name and title, then where and what, then what
 * to do:
 *
 *     [ImageMissing] An image is missing
 *       content/news/a.md:5: The image "./gone.png" does not exist (looked for content/news/gone.png).
 *       hint: Put the image beside the article …
 */
export function formatError(error: SsgError, options: { verbose?: boolean } = {}): string {
  const lines = [
    `[${error.code}] ${error.title}`,
    `  ${error.where ? `${error.where}: ` : ''}${error.message}`,
    `  hint: ${error.hint}`,
  ];
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

/** An expected problem as plain data, to cross from a helper process (whose Error objects lose their fields on the way). */
export interface ProblemData {
  errors: Array<{
    code: string;
    message: string;
    hint: string;
    file?: string;
    line?: number;
    column?: number;
    /** What the error was caused by, as its stack: shown with --verbose. */
    cause?: string;
  }>;
}

/** Anything unexpected is thrown on: it is a bug, and the caller reports it as one. */
export function problemData(error: unknown): ProblemData | undefined {
  const errors = error instanceof SsgErrorList ? error.errors : error instanceof SsgError ? [error] : undefined;
  return (
    errors && {
      errors: errors.map(({ code, message, hint, file, line, column, cause }) => ({
        code,
        message,
        hint,
        file,
        line,
        column,
        ...(cause instanceof Error ? { cause: cause.stack ?? cause.message } : {}),
      })),
    }
  );
}

/** The problem a helper reported, as errors of this process. */
export function reviveProblem(data: ProblemData): SsgError | SsgErrorList {
  const errors = data.errors.map((item) => {
    const cause = item.cause === undefined ? undefined : Object.assign(new Error(), { stack: item.cause });
    const error = Object.assign(new Error(item.message), { ...item, cause, name: 'SsgError' });
    return adoptBundledSsgError(error) ?? new Error(`${item.code}: ${item.message}`);
  });
  const expected = errors.filter((error): error is SsgError => error instanceof SsgError);
  if (expected.length !== errors.length) throw errors.find((error) => !(error instanceof SsgError));
  return expected.length === 1 ? expected[0]! : new SsgErrorList(expected);
}

/**
 * The problems of many files as one report, in file order whatever order they were found in;
 * anything unexpected wins, as it is a bug.
 */
export function mergeProblems(failures: readonly unknown[]): unknown {
  const unexpected = failures.find((failure) => !(failure instanceof SsgError || failure instanceof SsgErrorList));
  if (unexpected) return unexpected;
  const errors = failures.flatMap((failure) =>
    failure instanceof SsgErrorList ? failure.errors : [failure as SsgError],
  );
  const sorted = errors
    .map((error, index) => ({ error, index }))
    .sort((a, b) =>
      (a.error.file ?? '') < (b.error.file ?? '')
        ? -1
        : (a.error.file ?? '') > (b.error.file ?? '')
          ? 1
          : a.index - b.index,
    );
  const unique = [...new Set(sorted.map((item) => item.error))];
  return unique.length === 1 ? unique[0] : new SsgErrorList(unique);
}
