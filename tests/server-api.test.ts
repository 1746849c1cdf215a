// The generic server pieces at their input boundaries: API route file names, settings read from
// the environment, and the Pages Function adapter, with random and malformed inputs.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { memoryD1 } from './helpers/d1.ts';
import { onRequest } from '../functions/api/contact.ts';
import { SsgError } from '../src/errors/errors.ts';
import { apiRoutePath, defineApiRoute, isApiRoute } from '../src/server/api-route.ts';
import { pagesFunction } from '../src/server/pages-function.ts';
import { readSettings } from '../src/server/settings.ts';
import { serveSettingFailure } from '../src/server/serve-config.ts';

describe('API route files in site/api/', () => {
  it.each([
    ['contact.ts', '/api/contact'],
    ['contact-form.tsx', '/api/contact-form'],
    ['v2.mjs', '/api/v2'],
    ['contact.d.ts', undefined],
    ['contact.test.ts', undefined],
    ['.contact.ts', undefined],
    ['_helper.ts', undefined],
    ['Contact.ts', undefined],
    ['two--hyphens.ts', undefined],
    ['contact.json', undefined],
    ['contact', undefined],
    ['a b.ts', undefined],
    ['../x.ts', undefined],
  ])('%j answers at %j', (file, expected) => {
    expect(apiRoutePath(file)).toBe(expected);
  });

  it('any file name gives no path or /api/ and a plain slug taken from the name', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 40 }), fc.stringMatching(/^[a-z0-9-]{1,12}\.(ts|tsx|js|mjs|json|d\.ts)$/)),
        (file) => {
          const routePath = apiRoutePath(file);
          if (routePath === undefined) return;
          const name = routePath.slice('/api/'.length);
          expect(routePath.startsWith('/api/')).toBe(true);
          expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
          expect(file.startsWith(`${name}.`)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('tells a route from anything else a module may export', () => {
    expect(isApiRoute(defineApiRoute({ create: () => async () => new Response() }))).toBe(true);
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(isApiRoute(value)).toBe(false);
      }),
    );
  });
});

describe('settings from the environment', () => {
  const settings = (value: string | undefined) => readSettings({ X: value }, serveSettingFailure);

  it('a number setting is a number in range, the fallback, or an error naming the variable', () => {
    fc.assert(
      fc.property(
        fc.option(fc.oneof(fc.string(), fc.double().map(String), fc.integer().map(String)), { nil: undefined }),
        fc.boolean(),
        (raw, whole) => {
          try {
            const value = settings(raw).number('X', 7, { min: 1, whole });
            expect(Number.isFinite(value) && value >= 1).toBe(true);
            if (whole) expect(Number.isInteger(value)).toBe(true);
            if (raw === undefined || raw.trim() === '') expect(value).toBe(7);
          } catch (error) {
            expect(error).toBeInstanceOf(SsgError);
            expect((error as SsgError).code).toBe('ServeConfigInvalid');
            expect((error as SsgError).message).toMatch(/^X is ".*"; set it to a (whole )?number of at least 1\.$/s);
            expect((error as SsgError).hint).toContain('Set X in the environment');
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a flag is true, false, or an error naming the variable', () => {
    fc.assert(
      fc.property(
        fc.option(fc.oneof(fc.string(), fc.constantFrom('TRUE', ' yes ', '0', 'No', 'false')), { nil: undefined }),
        (raw) => {
          try {
            expect(typeof settings(raw).flag('X')).toBe('boolean');
          } catch (error) {
            expect((error as SsgError).message).toMatch(/^X is ".*"; set it to true or false\.$/s);
          }
        },
      ),
    );
  });

  it('origins are http(s) origins only, or an error naming the variable', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.webUrl(),
            fc.string(),
            fc.constantFrom('ftp://x.example', 'javascript:alert(1)', 'https://a.example/path?q'),
          ),
          { maxLength: 3 },
        ),
        (items) => {
          try {
            for (const origin of readSettings({ X: items.join(',') }, serveSettingFailure).origins('X')) {
              expect(origin).toMatch(/^https?:\/\/[^/]+$/);
            }
          } catch (error) {
            expect((error as SsgError).message).toMatch(/^X has ".*", which is not an http\(s\) origin/s);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a required setting that is unset or blank names the variable and what needs it', () => {
    for (const raw of [undefined, '', '   ']) {
      expect(() => settings(raw).required('X', 'the route needs it')).toThrow('X is not set; the route needs it.');
    }
    expect(settings('value').required('X', 'why')).toBe('value');
  });
});

describe('the Pages Function adapter', () => {
  const names = [
    'SITE_ORIGIN',
    'ALLOWED_ORIGINS',
    'TURNSTILE_SECRET_KEY',
    'TURNSTILE_VERIFY_URL',
    'TURNSTILE_EXPECTED_HOSTNAME',
    'CONTACT_WEBHOOK_URL',
    'RATE_LIMIT_MAX',
    'RATE_LIMIT_WINDOW_SECONDS',
  ];
  const valid: Record<string, string> = {
    SITE_ORIGIN: 'https://site.example',
    TURNSTILE_SECRET_KEY: 's',
    CONTACT_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
  };

  it('any environment gives an answer, or fails closed (503) with a named error naming a variable or binding in the log', async () => {
    const d1 = memoryD1();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.constantFrom(...names),
            fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('0', '-1', '2.5', 'https://a.example', '')),
            { maxKeys: 8 },
          ),
          fc.boolean(),
          fc.boolean(),
          async (random, startValid, bound) => {
            const env = { ...(startValid ? valid : {}), ...(bound ? { CONTACT_DB: d1.binding } : {}), ...random };
            logged.mockClear();
            // GET is answered (405) before anything would reach the network.
            const request = new Request('https://site.example/api/contact', { method: 'GET' });
            const response = await onRequest({ request, env: env as never });
            if (response.status === 405) return;
            expect(response.status).toBe(503);
            const log = logged.mock.calls.flat().join('\n');
            if (log.includes('[PagesBindingMissing]')) {
              expect(bound).toBe(false);
              expect(log).toContain('CONTACT_DB');
              return;
            }
            expect(log).toContain('[PagesSettingInvalid]');
            expect(names.some((name) => log.includes(`  ${name} `))).toBe(true);
            expect(log).toContain("in the Pages project's environment variables");
          },
        ),
        { numRuns: 300 },
      );
    } finally {
      logged.mockRestore();
      d1.close();
    }
  });

  it('hands the route its services once per set of settings, and the client address Cloudflare set', async () => {
    const seen: Array<{ address: string; origins: readonly string[]; max: number }> = [];
    let created = 0;
    const route = defineApiRoute({
      create(services) {
        created += 1;
        return async (_request, address) => {
          seen.push({ address, origins: services.allowedOrigins, max: services.rateLimit.max });
          return new Response('ok');
        };
      },
    });
    const run = pagesFunction(route, { inbox: () => ({ add: () => 1 }) });
    const env = {
      SITE_ORIGIN: 'https://site.example/',
      ALLOWED_ORIGINS: ' https://b.example , ,',
      RATE_LIMIT_MAX: '3',
    };
    const request = () => new Request('https://site.example/api/x', { headers: { 'CF-Connecting-IP': '203.0.113.9' } });
    await run({ request: request(), env });
    await run({ request: request(), env });
    expect(created).toBe(1);
    expect(seen[0]).toEqual({ address: '203.0.113.9', origins: ['https://site.example', 'https://b.example'], max: 3 });
    await run({ request: request(), env: { ...env, RATE_LIMIT_MAX: '4' } });
    expect(created).toBe(2);
  });
});
