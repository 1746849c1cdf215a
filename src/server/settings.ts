// Settings of the server and of a site's API routes, read from environment variables. Each
// platform words its failures for where the variables are set (a shell, a Pages project).

export type Env = Readonly<Record<string, string | undefined>>;

/** Makes the error for a variable that is missing or wrong; `problem` is one sentence without a full stop. */
export type SettingFailure = (name: string, problem: string) => Error;

export interface Settings {
  /** The raw value, undefined when unset. */
  raw(name: string): string | undefined;
  /** A value that must be set and not empty; `why` says what needs it. */
  required(name: string, why: string): string;
  /** A number (whole when `whole`) of at least `min`, or `fallback` when unset or blank. */
  number(name: string, fallback: number, rule?: { min?: number; whole?: boolean }): number;
  /** true/false, 1/0, yes/no (any case); unset or empty is false. */
  flag(name: string): boolean;
  /** An http(s) origin such as https://example.com, from a value of the variable `name`. */
  origin(name: string, value: string): string;
  /** Comma-separated origins; blank items are skipped. */
  origins(name: string): string[];
}

export function readSettings(env: Env, fail: SettingFailure): Settings {
  const settings: Settings = {
    raw: (name) => env[name],
    required(name, why) {
      const value = env[name];
      if (value === undefined || value.trim() === '') throw fail(name, `${name} is not set; ${why}`);
      return value;
    },
    number(name, fallback, { min = 0, whole = false } = {}) {
      const raw = env[name];
      if (raw === undefined || raw.trim() === '') return fallback;
      const value = Number(raw);
      if (!Number.isFinite(value) || value < min || (whole && !Number.isInteger(value))) {
        throw fail(name, `${name} is "${raw}"; set it to ${whole ? 'a whole number' : 'a number'} of at least ${min}`);
      }
      return value;
    },
    flag(name) {
      const raw = (env[name] ?? '').trim().toLowerCase();
      if (['', '0', 'false', 'no'].includes(raw)) return false;
      if (['1', 'true', 'yes'].includes(raw)) return true;
      throw fail(name, `${name} is "${env[name]}"; set it to true or false`);
    },
    origin(name, value) {
      try {
        const url = new URL(value);
        if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
      } catch {
        // Reported below with the variable's name.
      }
      throw fail(name, `${name} has "${value}", which is not an http(s) origin such as https://example.com`);
    },
    origins(name) {
      return (env[name] ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
        .map((item) => settings.origin(name, item));
    },
  };
  return settings;
}
