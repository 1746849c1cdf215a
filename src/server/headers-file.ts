import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface HeaderRule {
  pattern: RegExp;
  headers: Record<string, string>;
  /** Headers of earlier rules this one removes (`! Name`, Cloudflare's detach). */
  detach?: string[];
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
    const detached = /^\s+!\s*([A-Za-z0-9-]+)\s*$/.exec(line);
    if (rule && detached) {
      (rule.detach ??= []).push(detached[1]!.toLowerCase());
      continue;
    }
    const separator = line.indexOf(':');
    if (rule && separator > 0) rule.headers[line.slice(0, separator).trim()] = line.slice(separator + 1).trim();
  }
  return rules;
}

/** The headers `_headers` gives a path: every matching rule, later ones winning or detaching earlier ones'. */
export function headersFor(rules: readonly HeaderRule[], urlPath: string): Record<string, string> {
  let headers: Record<string, string> = {};
  for (const rule of rules.filter((each) => each.pattern.test(urlPath))) {
    const detach = new Set(rule.detach ?? []);
    headers = {
      ...Object.fromEntries(Object.entries(headers).filter(([name]) => !detach.has(name.toLowerCase()))),
      ...rule.headers,
    };
  }
  return headers;
}

/** The rules of a built site, or none when it has no `_headers`. */
export function loadHeadersFile(siteDir: string): HeaderRule[] {
  try {
    return parseHeadersFile(readFileSync(path.join(siteDir, '_headers'), 'utf8'));
  } catch {
    return [];
  }
}
