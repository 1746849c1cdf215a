import { mkdir, symlink, writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidHost, parseRequestTarget, sitePathOf } from '../src/server/request-target.ts';
import { byteRangeOf, matchesEntityTag, preferredEncoding } from '../src/server/content-negotiation.ts';
import { inBatches, rawGet, sendRaw, type RawExchange } from './helpers/raw-http.ts';
import { serveBuiltFixture, type ServedFixture } from './helpers/serve-fixture.ts';

const SECRET = 'secret-beside-the-site-7f3a';

/** Path pieces that have broken servers: empty authorities, dots, encodings, separators, NUL. */
const nastyPiece = fc.constantFrom(
  '/',
  '//',
  '.',
  '..',
  '%',
  '%%',
  '%2e',
  '%2E%2e',
  '%2f',
  '%2F',
  '%5c',
  '\\',
  '%00',
  '%5F',
  '%5Fheaders',
  '_headers',
  '_redirects',
  '@',
  ':',
  ':99999',
  '[',
  ']',
  '?',
  '#',
  ';',
  '~',
  '%c0%af',
  '%ff',
  '%e2%82',
  'é',
  '\u00ff',
  'news',
  'about',
  'index.html',
  'assets',
  'secret.txt',
  'outside',
  'big.bin',
  'sitemap.xml',
  '*',
  '%20',
  '+',
  '&',
  '=',
);
const requestPath = fc.oneof(
  fc.array(nastyPiece, { maxLength: 12 }).map((pieces) => pieces.join('')),
  fc.webPath(),
  fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((text) => text.replace(/[\r\n ]/g, '')),
  fc.integer({ min: 1, max: 3000 }).map((count) => '/a'.repeat(count)),
);
const target = fc.oneof(
  { weight: 5, arbitrary: requestPath.map((path) => (path.startsWith('/') ? path : `/${path}`)) },
  { weight: 1, arbitrary: requestPath },
  { weight: 1, arbitrary: requestPath.map((path) => `http://x${path.startsWith('/') ? '' : '/'}${path}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('*', 'http://x', 'https://[::1]:99999/', 'x:1', '//', '//:99999/', '//[/', '//@', '//%'),
  },
);
const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'HEAD') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT', 'PROPFIND', 'get'),
  },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,10}$/) },
);
const headerValue = fc.oneof(
  fc.string({ maxLength: 40 }).map((text) => text.replace(/[\r\n\0]/g, '')),
  fc.constantFrom(
    '*',
    'W/"x"',
    '"a", W/"b"',
    'bytes=0-0',
    'bytes=-1',
    'bytes=5-1',
    'bytes=0-1,2-3',
    'bytes=99999999999999999999-',
    'br;q=zz',
    'gzip;q=1e400',
    ';;;,,,',
    'identity;q=0, *;q=0',
    '[',
    'a:99999',
    '%',
    '[::1',
    'x'.repeat(4000),
  ),
);
const headerName = fc.oneof(
  fc.constantFrom(
    'Host',
    'Range',
    'If-None-Match',
    'If-Range',
    'Accept-Encoding',
    'Origin',
    'Content-Type',
    'Expect',
    'Upgrade',
    'Connection',
    'Transfer-Encoding',
    'X-Forwarded-For',
  ),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/),
);
const headers = fc.array(fc.tuple(headerName, headerValue), { maxLength: 8 });
const body = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 200 }),
  fc.constant('{"name":"a","email":"a@b.c","subject":"s","message":"m","turnstileToken":"t"}'),
);

/**
 * A request the parser can read to its end: one request line, headers with a correct
 * Content-Length (never chunked), Connection: close. Whatever its contents, it must get a status.
 */
const completeRequest = fc
  .record({ method, target, version: fc.constantFrom('HTTP/1.1', 'HTTP/1.0'), headers, body })
  .map((request) => {
    const chosen = request.headers.filter(
      ([name]) => !/^(content-length|transfer-encoding|connection|expect)$/i.test(name),
    );
    const hasHost = chosen.some(([name]) => name.toLowerCase() === 'host');
    const lines = [
      `${request.method} ${request.target} ${request.version}`,
      ...(hasHost ? [] : ['Host: 127.0.0.1']),
      ...chosen.map(([name, value]) => `${name}: ${value}`),
      `Content-Length: ${Buffer.byteLength(request.body)}`,
      'Connection: close',
    ];
    return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(request.body)]);
  });

/** Input that may not be a request at all, or only part of one: a status or a clean close. */
const garbage = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  fc.string({ maxLength: 200 }).map((text) => Buffer.from(text)),
  fc.tuple(completeRequest, fc.nat()).map(([request, cut]) => request.subarray(0, cut % (request.length + 1))),
  fc
    .tuple(method, target, fc.string({ maxLength: 20 }), headers)
    .map(([verb, path, version, pairs]) =>
      Buffer.from(
        `${verb} ${path} ${version}\r\n${pairs.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
        'latin1',
      ),
    ),
);

function expectAnswered(exchange: RawExchange, sent: Buffer) {
  const shown = JSON.stringify(sent.toString('latin1').slice(0, 300));
  expect(exchange.statusLine, `no status line for ${shown}`).toBeDefined();
  expect(exchange.status, `internal error for ${shown}`).not.toBe(500);
  expect(exchange.received.toString('latin1'), `secret leaked for ${shown}`).not.toContain(SECRET);
}

describe('ssg serve takes any request without stopping', () => {
  let fixture: ServedFixture;
  const stillServing = async () => {
    expect(fixture.serve.child.exitCode, fixture.serve.output).toBeNull();
    const home = await sendRaw(fixture.port, rawGet('/'), { timeoutMs: 15_000 });
    expect(home.status, fixture.serve.output).toBe(200);
  };

  beforeAll(async () => {
    fixture = await serveBuiltFixture(async (site) => {
      // A file beside the site that no request may reach, and a link to it inside.
      await writeFile(site.file('secret.txt'), SECRET);
      await mkdir(site.file('outside'), { recursive: true });
      await writeFile(site.file('outside/index.html'), SECRET);
      await symlink(site.file('secret.txt'), site.file('dist/secret.txt'));
      await symlink(site.file('outside'), site.file('dist/outside'));
    });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('answers every complete request, however malformed, with a status line (thousands, random)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(completeRequest, { minLength: 10, maxLength: 30 }), async (requests) => {
        const exchanges = await inBatches(requests, 8, (request) =>
          sendRaw(fixture.port, request, { timeoutMs: 20_000 }),
        );
        exchanges.forEach((exchange, index) => expectAnswered(exchange, requests[index]!));
        expect(fixture.serve.child.exitCode).toBeNull();
      }),
      { numRuns: 100, interruptAfterTimeLimit: 40_000, markInterruptAsFailure: false },
    );
    await stillServing();
    expect(fixture.serve.output).not.toMatch(/error:|Unexpected internal error/);
  }, 60_000);

  it('answers garbage and cut-off requests with a status line or closes cleanly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(garbage, { minLength: 10, maxLength: 30 }), async (inputs) => {
        const exchanges = await inBatches(inputs, 10, (input) =>
          sendRaw(fixture.port, input, { timeoutMs: 20_000, endAfterMs: 200 }),
        );
        for (const [index, exchange] of exchanges.entries()) {
          const shown = JSON.stringify(inputs[index]!.toString('latin1').slice(0, 200));
          expect(exchange.ended, `hung on ${shown}`).toBe(true);
          if (exchange.received.length > 0) expect(exchange.statusLine, `not HTTP for ${shown}`).toBeDefined();
          expect(exchange.status, `internal error for ${shown}`).not.toBe(500);
        }
      }),
      { numRuns: 60, interruptAfterTimeLimit: 30_000, markInterruptAsFailure: false },
    );
    await stillServing();
    expect(fixture.serve.output).not.toMatch(/error:|Unexpected internal error/);
  }, 60_000);

  it.each([
    ['//', 200],
    ['//:99999/', 404],
    ['//[/', 404],
    ['//@', 404],
    ['//%', 400],
    ['/%zz', 400],
    ['/%00', 400],
    ['/_headers', 404],
    ['/%5Fheaders', 404],
    ['/%5f%48EADERS', 404],
    ['/./_redirects', 404],
    ['/news/../_headers', 404],
    ['/%2e%2e/secret.txt', 404],
    ['/..%2fsecret.txt', 404],
    ['/..%5csecret.txt', 404],
    ['/..\\secret.txt', 404],
    ['/secret.txt', 404],
    ['/outside/', 404],
    ['/assets', 404],
    [`/${'x'.repeat(5000)}`, 404],
    [`/${'a/'.repeat(4000)}`, 404],
    ['http://x/', 200],
    ['http://x/about', 200],
  ])('GET %s answers %i', async (path, status) => {
    const exchange = await sendRaw(fixture.port, rawGet(path), { untilClose: true });
    expect(exchange.status).toBe(status);
    expect(exchange.received.toString()).not.toContain(SECRET);
  });

  it.each([['['], ['a:99999'], ['a%'], ['[::1'], ['a/b'], ['a b'], ['a@b']])(
    'answers 400 to the Host header %s, on pages and on the API',
    async (host) => {
      expect((await sendRaw(fixture.port, rawGet('/', { Host: host }))).status).toBe(400);
      expect((await sendRaw(fixture.port, rawGet('/api/contact', { Host: host }))).status).toBe(400);
    },
  );

  it('answers CONNECT 405, OPTIONS 204, other methods 405 or 400, HEAD without a body', async () => {
    expect((await sendRaw(fixture.port, 'CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n')).status).toBe(405);
    const options = await sendRaw(fixture.port, 'OPTIONS * HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', {
      untilClose: true,
    });
    expect(options.status).toBe(204);
    expect(options.received.toString()).toMatch(/\r\nAllow: GET, HEAD, OPTIONS\r\n/i);
    expect((await sendRaw(fixture.port, 'DELETE / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')).status).toBe(405);
    expect((await sendRaw(fixture.port, 'BREW / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')).status).toBe(400);
    const head = await sendRaw(fixture.port, 'HEAD / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', {
      untilClose: true,
    });
    expect(head.status).toBe(200);
    expect(head.received.toString().split('\r\n\r\n')[1]).toBe('');
  });

  it('serves one byte range, ignores ranges it does not take, refuses one past the end', async () => {
    const whole = await (
      await fetch(`${fixture.serve.url}/robots.txt`, { headers: { 'Accept-Encoding': 'identity' } })
    ).text();
    const part = await fetch(`${fixture.serve.url}/robots.txt`, {
      headers: { Range: 'bytes=2-5', 'Accept-Encoding': 'identity' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 2-5/${whole.length}`);
    expect(await part.text()).toBe(whole.slice(2, 6));
    const suffix = await fetch(`${fixture.serve.url}/robots.txt`, {
      headers: { Range: 'bytes=-3', 'Accept-Encoding': 'identity' },
    });
    expect(await suffix.text()).toBe(whole.slice(-3));
    for (const ignored of ['bytes=0-1,3-4', 'bytes=5-1', 'lines=1-2', 'bytes=x-']) {
      const response = await fetch(`${fixture.serve.url}/robots.txt`, {
        headers: { Range: ignored, 'Accept-Encoding': 'identity' },
      });
      expect([response.status, await response.text()], ignored).toEqual([200, whole]);
    }
    const past = await fetch(`${fixture.serve.url}/robots.txt`, {
      headers: { Range: `bytes=${whole.length}-`, 'Accept-Encoding': 'identity' },
    });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${whole.length}`);
  });

  it('answers If-None-Match with 304 for *, a list naming the tag, or its weak form', async () => {
    const etag = (await fetch(`${fixture.serve.url}/about`)).headers.get('etag')!;
    const opaque = etag.replace(/^W\//, '');
    for (const header of ['*', etag, `"nope", ${etag}`, opaque, ` ${etag} ,"x"`]) {
      expect((await fetch(`${fixture.serve.url}/about`, { headers: { 'If-None-Match': header } })).status, header).toBe(
        304,
      );
    }
    for (const header of ['"nope"', 'W/"', ',', 'garbage']) {
      expect((await fetch(`${fixture.serve.url}/about`, { headers: { 'If-None-Match': header } })).status, header).toBe(
        200,
      );
    }
  });
});

describe('the request parsers take any input', () => {
  it('parseRequestTarget never throws, and what it accepts has a path starting with /', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.webPath(), target), (raw) => {
        const parsed = parseRequestTarget(raw);
        if (parsed) expect(parsed.pathname.startsWith('/')).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('sitePathOf never climbs above the root and never keeps a NUL', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), requestPath, fc.webPath()), (raw) => {
        const sitePath = sitePathOf(raw);
        if (sitePath === undefined) return;
        expect(sitePath.startsWith('/')).toBe(true);
        expect(sitePath.split('/')).not.toContain('..');
        expect(sitePath).not.toContain('\0');
      }),
      { numRuns: 3000 },
    );
  });

  it('isValidHost never throws, and a URL can be built from every host it accepts', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.domain(),
          fc.ipV6().map((ip) => `[${ip}]:${ip.length}`),
          headerValue,
        ),
        (host) => {
          if (isValidHost(host) && host) expect(() => new URL(`http://${host}/path`)).not.toThrow();
        },
      ),
      { numRuns: 3000 },
    );
    for (const host of ['example.com', 'a:8080', '127.0.0.1:1', '[::1]:65535', 'xn--bcher-kva.example'])
      expect(isValidHost(host), host).toBe(true);
    for (const host of ['[', 'a:99999', 'a%', 'a/b', 'a b', 'a@b', '[::1']) expect(isValidHost(host), host).toBe(false);
  });

  it('byteRangeOf: a suffix range of an empty file is unsatisfiable (found by the property below)', () => {
    expect(byteRangeOf('bytes=-1', 0)).toBe('unsatisfiable');
    expect(byteRangeOf('bytes=-5', 3)).toEqual({ start: 0, end: 2 });
  });

  it('byteRangeOf gives only ranges inside the file', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          headerValue,
          fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => `bytes=${a}-${b}`),
        ),
        fc.nat(10_000),
        (header, size) => {
          const range = byteRangeOf(header, size);
          if (range === undefined || range === 'unsatisfiable') return;
          expect(range.start).toBeGreaterThanOrEqual(0);
          expect(range.start).toBeLessThanOrEqual(range.end);
          expect(range.end).toBeLessThan(size);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('preferredEncoding and matchesEntityTag never throw on garbage', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), headerValue), (header) => {
        expect([undefined, 'br', 'gzip']).toContain(preferredEncoding(header));
        expect(typeof matchesEntityTag(header, 'W/"a-b"')).toBe('boolean');
      }),
      { numRuns: 3000 },
    );
    expect(preferredEncoding('br;q=zz, gzip')).toBe('gzip');
    expect(preferredEncoding('*;q=0')).toBeUndefined();
  });
});
