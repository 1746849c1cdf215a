/**
 * Adds sources to directives of a Content-Security-Policy header, for the inline style and
 * script the generator puts in pages. A directive the policy lacks is made from `default-src`
 * (it would have applied) plus the sources; a policy with neither restricts nothing to add to.
 */
export function addCspSources(
  headers: Record<string, string> | undefined,
  sources: { style: readonly string[]; script: readonly string[] },
): Record<string, string> | undefined {
  if (!headers) return headers;
  const name = Object.keys(headers).find((key) => key.toLowerCase() === 'content-security-policy');
  if (!name) return headers;
  const directives = headers[name]!.split(';')
    .map((part) => part.trim())
    .filter(Boolean);
  const fallback = directives.find((part) => /^default-src\s/i.test(part))?.replace(/^default-src/i, '');
  const extend = (directive: string, extra: readonly string[]) => {
    if (extra.length === 0) return;
    const index = directives.findIndex((part) => part.toLowerCase().split(/\s+/)[0] === directive);
    if (index >= 0) {
      const present = new Set(directives[index]!.split(/\s+/));
      directives[index] = [directives[index], ...extra.filter((source) => !present.has(source))].join(' ');
    } else if (fallback !== undefined) {
      directives.push(`${directive}${fallback} ${extra.join(' ')}`);
    }
  };
  extend('style-src', sources.style);
  extend('script-src', sources.script);
  return { ...headers, [name]: directives.join('; ') };
}
