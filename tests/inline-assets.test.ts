import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addCspSources } from '../src/render/csp.ts';
import { renderHead } from '../src/render/head.ts';
import { BOOTSTRAP_HASH, BOOTSTRAP_SCRIPT, cspHash } from '../src/runtime/bootstrap.ts';
import { formatSummary, summaryRows } from '../src/cli/summary.ts';

const plain = { bold: (text: string) => text, dim: (text: string) => text } as Parameters<typeof formatSummary>[1];

describe('CSP sources for the inline style and bootstrap', () => {
  const csp = "default-src 'self'; script-src 'self' https://cdn.example; style-src 'self'; object-src 'none'";

  it('adds the hashes to the directives that exist', () => {
    const headers = addCspSources(
      { 'Content-Security-Policy': csp, 'X-Other': 'a' },
      { style: ["'sha256-A'"], script: ["'sha256-B'"] },
    );
    expect(headers).toEqual({
      'Content-Security-Policy':
        "default-src 'self'; script-src 'self' https://cdn.example 'sha256-B'; style-src 'self' 'sha256-A'; object-src 'none'",
      'X-Other': 'a',
    });
  });

  it('makes a missing directive from default-src, and leaves other headers and empty lists alone', () => {
    expect(
      addCspSources({ 'content-security-policy': "default-src 'self'" }, { style: ["'sha256-A'"], script: [] }),
    ).toEqual({
      'content-security-policy': "default-src 'self'; style-src 'self' 'sha256-A'",
    });
    expect(addCspSources({ 'X-Frame-Options': 'DENY' }, { style: ["'sha256-A'"], script: [] })).toEqual({
      'X-Frame-Options': 'DENY',
    });
    expect(addCspSources(undefined, { style: ["'sha256-A'"], script: [] })).toBeUndefined();
  });

  it('never drops a directive, never adds a source twice, and is idempotent (property)', () => {
    const token = fc.stringMatching(/^[a-z'][a-z0-9.:/'*-]{0,12}$/);
    const directive = fc.tuple(
      fc.constantFrom('default-src', 'script-src', 'style-src', 'img-src', 'frame-ancestors'),
      fc.array(token, { maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(directive, { maxLength: 6 }), fc.array(token, { maxLength: 3 }), (directives, hashes) => {
        const policy = directives.map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
        const once = addCspSources({ 'Content-Security-Policy': policy }, { style: hashes, script: hashes })!;
        const twice = addCspSources(once, { style: hashes, script: hashes })!;
        expect(twice).toEqual(once);
        const names = (text: string) =>
          text
            .split(';')
            .map((part) => part.trim().split(/\s+/)[0])
            .filter(Boolean);
        for (const name of names(policy)) expect(names(once['Content-Security-Policy']!)).toContain(name);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the inline bootstrap', () => {
  it('has the hash the CSP carries, stable from build to build', () => {
    expect(BOOTSTRAP_HASH).toBe(`'sha256-${createHash('sha256').update(BOOTSTRAP_SCRIPT).digest('base64')}'`);
    expect(cspHash('a')).toBe("'sha256-ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs='");
  });

  it('is a classic script that fetches nothing until an interaction event', () => {
    expect(BOOTSTRAP_SCRIPT).not.toMatch(/\bfetch\(|<\/script/i);
    expect(BOOTSTRAP_SCRIPT).toMatch(/import\(s\.dataset\.loader\)/);
  });
});

describe('the head with an inline style sheet', () => {
  const base = { head: { title: 'T' }, baseUrl: 'https://x.example', styles: ['/assets/index-A.css'] };

  it('puts the sheet in a <style> marked with its URL, and the bootstrap instead of the loader when asked', () => {
    const html = renderHead({
      ...base,
      inlineStyle: { url: '/assets/index-A.css', text: 'a{b:c}' },
      script: '/assets/loader.js',
      scriptOnInteraction: true,
    });
    expect(html).toContain('<style data-ssg-style="/assets/index-A.css">a{b:c}</style>');
    expect(html).not.toContain('<link rel="stylesheet"');
    expect(html).toContain(`<script data-loader="/assets/loader.js">${BOOTSTRAP_SCRIPT}</script>`);
    expect(html).not.toContain('type="module"');
  });

  it('links the sheet and loads the loader up front otherwise', () => {
    const html = renderHead({ ...base, script: '/assets/loader.js' });
    expect(html).toContain('<link rel="stylesheet" href="/assets/index-A.css">');
    expect(html).toContain('<script type="module" src="/assets/loader.js"></script>');
  });
});

describe('the build summary', () => {
  it('shows the JavaScript fetched at first paint per route, apart from all the page may fetch', () => {
    const rows = summaryRows([
      { route: '/', pattern: '/', htmlBytes: 2048, firstPaintJsGzip: 0, jsGzip: 0, cssGzip: 1024 },
      { route: '/news', pattern: '/news', htmlBytes: 2048, firstPaintJsGzip: 1200, jsGzip: 70_000, cssGzip: 1024 },
    ]);
    const text = formatSummary(rows, plain);
    expect(text.split('\n')[0]).toMatch(/Route\s+HTML\s+JS at first paint\s+JS in all \(gzip\)\s+CSS \(gzip\)/);
    expect(text.split('\n')[1]).toMatch(/^\/\s+2(\.0)? KB\s+-\s+-\s+1(\.0)? KB$/);
    expect(text.split('\n')[2]).toMatch(/^\/news\s+2(\.0)? KB\s+1\.2 KB\s+68\.4 KB/);
  });

  it('groups many pages with the largest first-paint figure', () => {
    const pages = Array.from({ length: 12 }, (_, index) => ({
      route: `/news/${index}`,
      pattern: '/news/:slug',
      htmlBytes: 100,
      firstPaintJsGzip: index * 10,
      jsGzip: 5,
      cssGzip: 1,
    }));
    expect(summaryRows(pages)).toEqual([
      { route: '/news/:slug (12 pages, largest)', htmlBytes: 100, firstPaintJsGzip: 110, jsGzip: 5, cssGzip: 1 },
    ]);
  });
});

describe('dev mode style swap in pages not rendered again', () => {
  it('replaces the inline sheet with the new text, or the link with the new URL', async () => {
    const { swapStyleSheet } = await import('../src/render/head.ts');
    const before = { url: '/assets/a.css', text: 'h1{color:red}' };
    const after = { url: '/assets/b.css', text: 'h1{color:blue}' };
    const page = `<head><style data-ssg-style="/assets/a.css">h1{color:red}</style></head><body>h1{color:red}</body>`;
    expect(swapStyleSheet(page, before.url, after.url, { before, after })).toBe(
      `<head><style data-ssg-style="/assets/b.css">h1{color:blue}</style></head><body>h1{color:red}</body>`,
    );
    // Grown past the inline limit: the page links the new sheet.
    expect(swapStyleSheet(page, before.url, after.url, { before })).toContain(
      '<link rel="stylesheet" href="/assets/b.css">',
    );
    expect(swapStyleSheet('<link rel="stylesheet" href="/assets/a.css">', before.url, after.url, { after })).toBe(
      '<style data-ssg-style="/assets/b.css">h1{color:blue}</style>',
    );
  });
});
