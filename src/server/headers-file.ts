import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface HeaderRule {
  pattern: RegExp;
  headers: Record<string, string>;
}

/** Reads the `_headers` format (Netlify, Cloudflare Pages): a path line, then indented `Name: value` lines. */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const source = line
        .trim()
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/:\w+/g, '[^/]+');
      rules.push({ pattern: new RegExp(`^${source}$`), headers: {} });
      continue;
    }
    const rule = rules.at(-1);
    const separator = line.indexOf(':');
    if (rule && separator > 0) rule.headers[line.slice(0, separator).trim()] = line.slice(separator + 1).trim();
  }
  return rules;
}

/** The headers `_headers` gives a path: every matching rule, later ones winning. */
export function headersFor(rules: readonly HeaderRule[], urlPath: string): Record<string, string> {
  return Object.assign({}, ...rules.filter((rule) => rule.pattern.test(urlPath)).map((rule) => rule.headers));
}

/** The rules of a built site, or none when it has no `_headers`. */
export function loadHeadersFile(siteDir: string): HeaderRule[] {
  try {
    return parseHeadersFile(readFileSync(path.join(siteDir, '_headers'), 'utf8'));
  } catch {
    return [];
  }
}
