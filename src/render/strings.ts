// The site's own words per locale (`content/strings/de.yaml`), as pages ask for them: `t('nav.about')`.
// Each file is a map of keys to text, nested maps read as dotted keys (`nav: { about: Über uns }`
// is `nav.about`); a key missing in one locale shows the default locale's text, with a warning.
import type { DataEntry } from '../content/collections.ts';
import { STRINGS_COLLECTION } from '../content/collections.ts';
import { catalogueError, SsgErrorList, type SsgError } from '../errors/errors.ts';
import { nearestKey } from '../content/schema-keys.ts';
import type { Locales } from './i18n.ts';

/** One locale's strings, by dotted key, and the file they are in. */
interface LocaleStrings {
  file: string;
  texts: ReadonlyMap<string, string>;
}

/** The keys of a file's map as dotted keys, each with its text; a value that is no text is a mistake, named. */
function flatten(value: unknown, file: string, prefix = '', into = new Map<string, string>()): Map<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw catalogueError('StringsInvalid', ['notMap', prefix || '(the whole file)'], { file });
  for (const [key, text] of Object.entries(value)) {
    const dotted = prefix ? `${prefix}.${key}` : key;
    // `nav.about: …` beside `nav: { about: … }`: one key written twice, one text lost unseen.
    if (into.has(dotted)) throw catalogueError('StringsInvalid', ['twice', dotted], { file });
    if (typeof text === 'string') into.set(dotted, text);
    else if (text && typeof text === 'object' && !Array.isArray(text)) flatten(text, file, dotted, into);
    else throw catalogueError('StringsInvalid', ['notText', dotted, JSON.stringify(text) ?? String(text)], { file });
  }
  return into;
}

const read = new WeakMap<object, ReadonlyMap<string, LocaleStrings>>();

/** Each locale's strings from the `strings` collection's entries (`en`, `de`), read once per data. */
export function stringsByLocale(data: Record<string, unknown>, i18n: Locales): ReadonlyMap<string, LocaleStrings> {
  const entries = (data[STRINGS_COLLECTION] ?? []) as readonly DataEntry[];
  const known = read.get(entries);
  if (known) return known;
  const byLocale = new Map<string, LocaleStrings>();
  const errors: SsgError[] = [];
  for (const entry of entries) {
    try {
      if (!i18n.locales.includes(entry.id))
        throw catalogueError('StringsInvalid', ['locale', entry.id, i18n.locales], { file: entry.file });
      byLocale.set(entry.id, { file: entry.file, texts: flatten(entry.data, entry.file) });
    } catch (error) {
      errors.push(error as SsgError);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SsgErrorList(errors);
  read.set(entries, byLocale);
  return byLocale;
}

/** `{name}` in a text replaced by `values.name`; a name without a value is a mistake, named. */
function filled(text: string, key: string, file: string, values: Readonly<Record<string, string | number>>): string {
  return text.replace(/\{([A-Za-z_][\w]*)\}/g, (_, name: string) => {
    if (!Object.hasOwn(values, name)) throw catalogueError('StringMissing', ['value', key, name, file]);
    return String(values[name]);
  });
}

const rules = new Map<string, Intl.PluralRules>();
const pluralRules = (locale: string) =>
  rules.get(locale) ?? rules.set(locale, new Intl.PluralRules(locale)).get(locale)!;

/** What a page's `t` does: the locale's text for a key, else the default locale's; a key in neither is a mistake. */
export function translate(
  data: Record<string, unknown>,
  i18n: Locales,
  locale: string,
  key: string,
  values: Readonly<Record<string, string | number>> = {},
): string {
  const strings = stringsByLocale(data, i18n);
  // With a number as `count`, the form of its plural category first (`home.count.one`), as CLDR has them.
  const count = values.count;
  const forms =
    typeof count === 'number' ? [`${key}.${pluralRules(locale).select(count)}`, `${key}.other`, key] : [key];
  for (const one of [strings.get(locale), strings.get(i18n.defaultLocale)]) {
    const found = forms.find((form) => one?.texts.has(form));
    if (found !== undefined) return filled(one!.texts.get(found)!, found, one!.file, values);
  }
  const files = [...new Set([locale, i18n.defaultLocale])].map((one) => `content/${STRINGS_COLLECTION}/${one}.yaml`);
  const known = [
    ...new Set([
      ...(strings.get(locale)?.texts.keys() ?? []),
      ...(strings.get(i18n.defaultLocale)?.texts.keys() ?? []),
    ]),
  ];
  throw catalogueError('StringMissing', ['key', key, locale, files, nearestKey(key, known)]);
}

/**
 * What a site in several languages is missing: each key one locale's file has and another's does
 * not, and each locale with neither a strings file nor any content of its own (`hasContent`).
 * Warnings, or with `strict` errors.
 */
export function checkStrings(
  data: Record<string, unknown>,
  i18n: Locales,
  hasContent: (locale: string) => boolean,
  warn: (message: string) => void,
): void {
  const strings = stringsByLocale(data, i18n);
  const problems: string[] = [];
  for (const locale of i18n.locales) {
    if (!strings.has(locale) && !hasContent(locale))
      problems.push(
        `i18n.locales lists ${locale}, but no content/${STRINGS_COLLECTION}/${locale}.yaml and no article in ${locale} exists; add them, or remove ${locale}.`,
      );
  }
  const keys = new Map<string, string>();
  for (const { file, texts } of strings.values())
    for (const key of texts.keys()) if (!keys.has(key)) keys.set(key, file);
  for (const [locale, { file, texts }] of strings) {
    const missing = [...keys].filter(([key]) => !texts.has(key));
    for (const [key, other] of missing.slice(0, 10)) {
      const shown = strings.get(i18n.defaultLocale)?.texts.has(key) ? `the ${i18n.defaultLocale} text` : 'no text';
      problems.push(`${file}: no "${key}" (${other} has it), so ${locale} pages show ${shown} there.`);
    }
    if (missing.length > 10) problems.push(`${file}: ${missing.length - 10} more keys missing; see the ten above.`);
  }
  if (problems.length === 0) return;
  if (!i18n.strict) return problems.forEach((problem) => warn(problem));
  const errors = problems.map((problem) => catalogueError('StringsIncomplete', [problem]));
  throw errors.length === 1 ? errors[0] : new SsgErrorList(errors);
}
