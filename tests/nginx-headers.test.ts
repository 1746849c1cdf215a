import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SsgError } from '../src/errors/errors.ts';
import { parseHeadersFile } from '../src/server/headers-file.ts';
import { headersFile, nginxHeadersFile, siteFiles } from '../src/render/site-files.ts';

/** Reads the file back as nginx would: one `add_header NAME "VALUE" always;` per line. */
function parseNginxHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^add_header ([A-Za-z0-9-]+) "((?:[^"\\]|\\.)*)" always;$/.exec(line);
    if (!match) throw new Error(`Not an add_header line: ${line}`);
    headers[match[1]!] = match[2]!.replace(/\\(.)/g, '$1');
  }
  return headers;
}

const headerName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,30}$/);
// Anything printable but `$`, quotes and backslashes included, trimmed as hosts trim it.
const headerValue = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom('"', '\\', "'", ';', '{', '}', '#', ' ', 'é', '✓'),
      fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }),
    ),
    minLength: 1,
    maxLength: 80,
  })
  .map((value) => value.replace(/[\u0000-\u001f\u007f$]/g, 'x').trim())
  .filter((value) => value.length > 0);

describe('the nginx headers file', () => {
  it('carries exactly the headers of _headers, each as one add_header … always; line', () => {
    fc.assert(
      fc.property(fc.dictionary(headerName, headerValue, { maxKeys: 8 }), (headers) => {
        const nginx = parseNginxHeaders(nginxHeadersFile(headers));
        expect(nginx).toEqual(headers);
        const everyPath = parseHeadersFile(headersFile(headers)).find((rule) => rule.pattern.test('/'))!.headers;
        expect(nginx).toEqual(everyPath);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses, naming the header and site/index.tsx, a value nginx would misread or a name it cannot take', () => {
    const poison = fc.constantFrom('$', '$host', '\n', '\r', '\u0000', '\t', '\u007f', '\nadd_header X-Evil "1";');
    const badValue = fc.tuple(headerValue, poison, headerValue).map(([a, p, b]) => a + p + b);
    const badName = fc
      .tuple(headerName, fc.constantFrom(' ', ':', '"', '$', ';', '{', '\n', '_', 'é'))
      .map(([name, bad]) => name + bad);
    fc.assert(
      fc.property(fc.oneof(fc.tuple(headerName, badValue), fc.tuple(badName, headerValue)), ([name, value]) => {
        let error: unknown;
        try {
          nginxHeadersFile({ 'X-Fine': 'ok', [name]: value });
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(SsgError);
        expect((error as SsgError).code).toBe('HeaderInvalid');
        expect((error as SsgError).file).toBe('site/index.tsx');
        expect((error as SsgError).message).toContain(JSON.stringify(name));
      }),
      { numRuns: 300 },
    );
  });

  it('is written beside _headers by every build, unless the site ships its own', () => {
    const input = { jobs: [], articles: [], baseUrl: 'https://example.org', now: new Date(0), headers: { 'X-A': 'b' } };
    const written = siteFiles({ ...input, publicFiles: new Set() });
    expect(written.find((file) => file.path === '_headers.nginx.conf')?.contents).toBe(
      nginxHeadersFile({ 'X-A': 'b' }),
    );
    expect(
      siteFiles({ ...input, publicFiles: new Set(['_headers.nginx.conf']) }).map((file) => file.path),
    ).not.toContain('_headers.nginx.conf');
  });
});
