// How the catalogue's entries are worded (src/errors/errors-data.ts): the shape of an entry, and the
// wording that differs by case. Read by the machinery (src/errors/errors.ts) and the error reference.

/** A message (or hint) worded from the details of one occurrence. */
export type Wording = (...details: any[]) => string;

/** One failure of the catalogue. */
export interface CatalogueEntry {
  /** What went wrong, in general: printed after the name. */
  title: string;
  /** What to do; a function of the details where the advice names them. */
  hint: string | Wording;
  /** The message, from the details of one occurrence. */
  message: Wording;
}

/** The details of a `byCase` message: the case's name, then that case's own details. */
type CaseDetails<Cases extends Record<string, Wording>> = {
  [K in keyof Cases & string]: [K, ...Parameters<Cases[K]>];
}[keyof Cases & string];

/**
 * One failure worded several ways: the first detail names the case, the rest are its details. For
 * occurrences that differ in wording only; a failure of another kind gets an entry of its own.
 */
export function byCase<const Cases extends Record<string, Wording>>(
  cases: Cases,
): (...details: CaseDetails<Cases>) => string {
  const worded = (...details: CaseDetails<Cases>) => {
    const [name, ...rest] = details as unknown as [string, ...unknown[]];
    return (cases[name] as Wording)(...rest);
  };
  wordingCases.set(worded, cases);
  return worded;
}

/** The cases of each wording made by `byCase`, for the error reference (docs/reference/errors.md). */
const wordingCases = new WeakMap<Wording, Record<string, Wording>>();

/** The cases a message or hint is worded by, when it is worded by case. */
export function casesOf(wording: Wording): Readonly<Record<string, Wording>> | undefined {
  return wordingCases.get(wording);
}
