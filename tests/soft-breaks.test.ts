import fc from 'fast-check';
import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MAX_PART, softBreakParts, SoftBreaks } from '../site/components/soft-breaks.tsx';

const longValues = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.emailAddress(),
  fc.stringMatching(/^0x[0-9a-f]{40}$/),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: fc.constantFrom(':', '/', '.', '-', '@', '?', 'a', '0', '😀'), maxLength: 200 }),
);

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('softBreakParts', () => {
  it('gives back the value when joined, in non-empty parts of at most MAX_PART characters', () => {
    fc.assert(
      fc.property(longValues, (value) => {
        const parts = softBreakParts(value);
        expect(parts.join('')).toBe(value);
        for (const part of parts) {
          expect(part.length).toBeGreaterThan(0);
          expect(Array.from(part).length).toBeLessThanOrEqual(MAX_PART);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never halves a character outside the BMP', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }), (value) => {
        for (const part of softBreakParts(value)) expect(part).not.toMatch(loneSurrogate);
      }),
      { numRuns: 300 },
    );
  });

  it('breaks URLs after the scheme and slashes and before dots and hyphens, never after them', () => {
    expect(softBreakParts('https://celo-testnet.validators.example/celo')).toEqual([
      'https://',
      'celo',
      '-testnet',
      '.validators',
      '.example/',
      'celo',
    ]);
    expect(softBreakParts('hello@example.com')).toEqual(['hello', '@example', '.com']);
    fc.assert(
      fc.property(fc.webUrl(), (url) => {
        for (const part of softBreakParts(url).slice(0, -1)) {
          if (part.length < MAX_PART) expect(part).not.toMatch(/[.\-@]$/);
        }
      }),
    );
  });

  it('cuts a hex address into pieces of eight', () => {
    const address = `0x${'ab12'.repeat(10)}`;
    expect(softBreakParts(address)).toEqual(['0xab12ab', '12ab12ab', '12ab12ab', '12ab12ab', '12ab12ab', '12']);
  });

  it('copes with the empty string and punctuation only', () => {
    expect(softBreakParts('')).toEqual([]);
    expect(softBreakParts('://..--//')).toEqual(['://', '..--//']);
  });
});

describe('SoftBreaks', () => {
  it('renders the value, escaped, with <wbr/> between the parts and nothing else', () => {
    fc.assert(
      fc.property(longValues, (value) => {
        const html = renderToStaticMarkup(createElement(SoftBreaks, { value }));
        expect(html.replaceAll('<wbr/>', '')).toBe(renderToStaticMarkup(createElement(Fragment, null, value)));
        expect(html.split('<wbr/>').length).toBe(Math.max(1, softBreakParts(value).length));
      }),
      { numRuns: 300 },
    );
  });
});
