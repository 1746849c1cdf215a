import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createContactHandler,
  FORM_POST_PAGE,
  FORM_POST_PAGES,
  formPostPage,
  isBrowserFormPost,
} from '../site/contact/handler.ts';
import { i18n, localePrefix } from '../site/locales.ts';
import { createRateLimiter } from '../src/server/rate-limit.ts';

const ORIGIN = 'https://validators.example';

/** A handler whose verifier and inbox only count: a form post must reach neither. */
function recordingHandler() {
  const calls = { verified: 0, stored: 0 };
  const handle = createContactHandler({
    verifier: {
      verify: async () => (calls.verified++, { success: true, hostname: 'validators.example', errorCodes: [] }),
    },
    inbox: { add: () => ++calls.stored },
    rateLimiter: createRateLimiter({ limit: 1000, windowMs: 60_000 }),
    allowedOrigins: [ORIGIN],
  });
  return { handle, calls };
}

const post = (contentType: string, body: BodyInit, origin: string | null = ORIGIN) =>
  new Request('https://validators.example/api/contact', {
    method: 'POST',
    headers: { 'Content-Type': contentType, ...(origin ? { Origin: origin } : {}) },
    body,
  });

describe('a form the browser posts without JavaScript', () => {
  it('is answered with 303 to the explanation page, nothing read, verified or stored', async () => {
    const { handle, calls } = recordingHandler();
    const body = new URLSearchParams({ name: 'Ada', email: 'ada@example.org', subject: 'S', message: 'Private' });
    const response = await handle(post('application/x-www-form-urlencoded', body), '203.0.113.1');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(FORM_POST_PAGE);
    expect(response.headers.get('location')).not.toMatch(/[?#]/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toBe('');
    expect(calls).toEqual({ verified: 0, stored: 0 });
  });

  it('from the German page (its address says ?lang=de) leads to the German explanation, and nowhere else', async () => {
    const { handle, calls } = recordingHandler();
    const body = new URLSearchParams({ name: 'Ada', message: 'Privat' });
    const answer = async (query: string) =>
      (
        await handle(
          new Request(`https://validators.example/api/contact${query}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN },
            body,
          }),
          '203.0.113.1',
        )
      ).headers.get('location');
    expect(await answer('?lang=de')).toBe('/de/contact/no-script');
    expect(await answer('?lang=en')).toBe(FORM_POST_PAGE);
    for (const query of ['', '?lang=fr', '?lang=', '?lang=//evil.example', '?lang=de/../../x', '?lang=constructor'])
      expect(await answer(query)).toBe(FORM_POST_PAGE);
    expect(calls).toEqual({ verified: 0, stored: 0 });
    // Whatever the address says, the answer is one of the site's own pages (property).
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (lang) => {
        const page = formPostPage(`https://validators.example/api/contact?lang=${encodeURIComponent(lang)}`);
        expect([...FORM_POST_PAGES.values()]).toContain(page);
      }),
      { numRuns: 300 },
    );
    expect(formPostPage('not a url')).toBe(FORM_POST_PAGE);
    // One page per language of the site, each where the site writes it.
    expect([...FORM_POST_PAGES]).toEqual(
      i18n.locales.map((locale) => [locale, `${localePrefix(locale)}${FORM_POST_PAGE}`]),
    );
  });

  it('is answered the same way as multipart, and whatever the origin', async () => {
    const { handle, calls } = recordingHandler();
    const form = new FormData();
    form.set('message', 'Private');
    for (const origin of [ORIGIN, null, 'https://elsewhere.example']) {
      const response = await handle(
        new Request('https://validators.example/api/contact', {
          method: 'POST',
          body: form,
          headers: origin ? { Origin: origin } : {},
        }),
        '203.0.113.1',
      );
      expect(response.status).toBe(303);
    }
    expect(calls).toEqual({ verified: 0, stored: 0 });
  });

  it('the page it leads to is a route of the site', async () => {
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(new URL('../site/index.tsx', import.meta.url), 'utf8')).toContain(
      `path: '${FORM_POST_PAGE}'`,
    );
  });

  it('any body, however malformed or large, gets the same answer and stores nothing (property)', async () => {
    const { handle, calls } = recordingHandler();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'Application/X-WWW-Form-Urlencoded;charset=utf-8',
        ),
        fc.oneof(fc.string({ maxLength: 2000 }), fc.uint8Array({ maxLength: 70_000 })),
        async (contentType, body) => {
          const response = await handle(post(contentType, body), '203.0.113.1');
          expect(response.status).toBe(303);
          expect(response.headers.get('location')).toBe(FORM_POST_PAGE);
        },
      ),
      { numRuns: 60 },
    );
    expect(calls).toEqual({ verified: 0, stored: 0 });
  });

  it('a body stream that fails mid-way still gets the answer (fault injected)', async () => {
    const { handle } = recordingHandler();
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('connection reset'));
      },
    });
    const request = new Request('https://validators.example/api/contact', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN },
      body: failing,
      duplex: 'half',
    } as RequestInit);
    expect((await handle(request, '203.0.113.1')).status).toBe(303);
  });

  it('only the two form encodings count as a browser form post (property)', () => {
    expect(isBrowserFormPost('application/x-www-form-urlencoded')).toBe(true);
    expect(isBrowserFormPost('multipart/form-data; boundary=----x')).toBe(true);
    for (const other of [
      'application/json',
      'text/plain',
      '',
      'application/x-www-form-urlencodedx',
      'multipart/mixed',
    ]) {
      expect(isBrowserFormPost(other)).toBe(false);
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (contentType) => {
        const expected = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i.test(contentType);
        expect(isBrowserFormPost(contentType)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('JSON posts still go the usual way', async () => {
    const { handle } = recordingHandler();
    const response = await handle(post('application/json', '{'), '203.0.113.1');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, error: 'invalid_json' });
  });
});
