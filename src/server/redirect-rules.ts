// The site's `_redirects` (the build writes it from the site's redirects and articles' earlier
// addresses), answered as Netlify and Cloudflare Pages answer it: preview, serve and dev agree
// with the hosts.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

export interface RedirectAnswer {
  status: number;
  location: string;
}

const STATUSES = new Set([301, 302, 303, 307, 308]);
// What a Location header may carry as it is: visible ASCII, no quotes or spaces.
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** The simple rules of a `_redirects` file: `/from /to [status]`; splats, placeholders and rewrites are left to the hosts. */
export function parseRedirectRules(text: string): Map<string, RedirectAnswer> {
  const rules = new Map<string, RedirectAnswer>();
  for (const line of text.split(/\r?\n/)) {
    const [from, to, code, ...rest] = line.trim().split(/\s+/);
    if (!from || !to || from.startsWith('#') || rest.length > 0 || /[*:]/.test(from) || !from.startsWith('/')) continue;
    const status = code === undefined ? 302 : Number(code);
    if (!STATUSES.has(status) || !HEADER_SAFE.test(to) || /\/:|\*/.test(to)) continue;
    // The first rule for a path wins, as on both hosts.
    if (!rules.has(from)) rules.set(from, { status, location: to });
  }
  return rules;
}

const cache = new Map<string, { stamp: string; rules: Map<string, RedirectAnswer> }>();

/** The rules of the `_redirects` file at the root of the site, read again when it changes. */
async function rulesOf(root: string): Promise<Map<string, RedirectAnswer>> {
  const file = path.join(root, '_redirects');
  const stats = await stat(file).catch(() => undefined);
  if (!stats?.isFile()) return new Map();
  const stamp = `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  const known = cache.get(root);
  if (known?.stamp === stamp) return known.rules;
  const rules = parseRedirectRules(await readFile(file, 'utf8').catch(() => ''));
  cache.set(root, { stamp, rules });
  return rules;
}

/** Where a request for `sitePath` is sent, with the request's query kept when the rule gives none. */
export async function redirectOf(root: string, sitePath: string, search: string): Promise<RedirectAnswer | undefined> {
  const rule = (await rulesOf(root)).get(sitePath);
  if (!rule) return undefined;
  const query = rule.location.includes('?') ? '' : search.replace(/[^\x21-\x7e]/g, (char) => encodeURIComponent(char));
  return { status: rule.status, location: rule.location.replace(/(#.*)?$/, (fragment) => query + fragment) };
}
