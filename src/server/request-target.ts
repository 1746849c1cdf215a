import path from 'node:path';

/** The path and query a request asks for, still percent-encoded as sent. */
export interface RequestTarget {
  pathname: string;
  search: string;
}

const ABSOLUTE_FORM = /^[a-z][a-z\d+.-]*:\/\//i;

/**
 * Reads a request line's target without trusting it. Origin-form (`/path?query`) is split by
 * hand: `new URL('//x', base)` would take `x` for a host and throw on `//`, `//[/` or `//:99999/`.
 * Absolute-form (`http://host/path`, sent to proxies) keeps only its path and query. Anything
 * else (`*`, garbage) is undefined: the caller answers 400.
 */
export function parseRequestTarget(raw: string | undefined): RequestTarget | undefined {
  const target = raw || '/';
  if (target.startsWith('/')) {
    const withoutFragment = target.split('#', 1)[0]!;
    const queryAt = withoutFragment.indexOf('?');
    return queryAt === -1
      ? { pathname: withoutFragment, search: '' }
      : { pathname: withoutFragment.slice(0, queryAt), search: withoutFragment.slice(queryAt) };
  }
  if (!ABSOLUTE_FORM.test(target)) return undefined;
  try {
    const url = new URL(target);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return { pathname: url.pathname, search: url.search };
  } catch {
    return undefined;
  }
}

/**
 * The site path a request path names: percent-decoded once, dot segments and repeated slashes
 * resolved so it can never climb above `/` (a trailing slash is kept: it asks for a folder).
 * Undefined for a malformed percent-encoding or a NUL byte, which can name no file.
 */
export function sitePathOf(pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  return path.posix.normalize(`/${decoded}`);
}

// reg-name or IP literal, then an optional port (RFC 3986 host and port, as a Host header carries them).
const HOST_HEADER = /^(?:\[[\da-f:.]+\]|[a-z\d\-._~!$&'()*+,;=%]+)(?::(\d{0,5}))?$/i;

/**
 * Whether a Host header is one a URL can be built from. An absent or empty one is fine (HTTP/1.0,
 * and Node itself refuses an HTTP/1.1 request without one).
 */
export function isValidHost(host: string | undefined): boolean {
  if (host === undefined || host === '') return true;
  const match = HOST_HEADER.exec(host);
  if (!match) return false;
  if (match[1] && Number(match[1]) > 65_535) return false;
  try {
    new URL(`http://${host}/`);
    return true;
  } catch {
    return false;
  }
}
