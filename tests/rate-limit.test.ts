import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { BlockList, isIP } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onRequest } from '../functions/api/contact.ts';
import { parseProxyTrust, resolveClientAddress, type ProxyTrust } from '../src/server/client-address.ts';
import { createRateLimiter, MAX_OTHER_KEY_LENGTH, rateLimitKey } from '../src/server/rate-limit.ts';
import { SsgError } from '../src/errors/errors.ts';
import { readServeConfig } from '../src/server/serve-config.ts';
import { runCli } from './helpers/project.ts';
import { ServeProcess } from './helpers/serve-process.ts';
import { freePort, startSiteverify } from './helpers/stand-ins.ts';

// ---------------------------------------------------------------------------------------------
// Arbitraries: addresses of every kind a header or socket may carry.
const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(octet, octet, octet, octet).map((parts) => parts.join('.'));
const hextet = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
const ipv6 = fc.array(hextet, { minLength: 8, maxLength: 8 }).map((parts) => parts.join(':'));
const mapped = ipv4.map((address) => `::ffff:${address}`);
const loopback = fc.oneof(
  fc.constant('127.0.0.1'),
  octet.map((n) => `127.0.0.${n}`),
  fc.constant('::1'),
);
const privateV4 = fc.oneof(
  octet.map((n) => `10.1.0.${n}`),
  octet.map((n) => `192.168.1.${n}`),
  fc.constant('192.0.2.7'),
);
const docV6 = fc.array(hextet, { minLength: 6, maxLength: 6 }).map((parts) => `2001:db8:${parts.join(':')}`);
const garbage = fc.oneof(
  fc.string({ maxLength: 20 }).filter((text) => !text.includes(',')),
  fc.constantFrom(
    'unknown',
    'localhost',
    '999.1.1.1',
    '127.1',
    '0x7f000001',
    '1',
    '::ffff:999.0.0.1',
    '1.2.3.4:80',
    '[::1]',
  ),
);
const anyAddress = fc.oneof(ipv4, ipv6, mapped, loopback, privateV4, docV6, garbage);
const socketAddress = fc.oneof(ipv4, ipv6, mapped, loopback, privateV4, docV6);
const forwardedHeader = fc.option(
  fc
    .array(fc.tuple(anyAddress, fc.constantFrom('', ' ', '  ')), { maxLength: 12 })
    .map((entries) => entries.map(([address, space]) => `${space}${address}${space}`).join(',')),
  { nil: undefined },
);
const RANGE_CHOICES = [
  'loopback',
  'uniquelocal',
  'linklocal',
  '10.1.0.0/16',
  '192.0.2.7',
  '2001:db8::/32',
  '127.0.0.1/8',
  '0.0.0.0/1',
];
const trustSetting = fc.oneof(
  fc.integer({ min: 0, max: 5 }).map(String),
  fc.constantFrom('true', 'false', ''),
  fc.subarray(RANGE_CHOICES, { minLength: 1 }).map((ranges) => ranges.join(',')),
);

// ---------------------------------------------------------------------------------------------
// A reference model of proxy-addr's rule, written independently: node:net's BlockList for ranges.
const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

function canonical(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match && isIP(match[1]!) === 4 ? match[1]! : address;
}

function modelTrust(setting: string): (address: string, hop: number) => boolean {
  const value = setting.trim().toLowerCase();
  if (['', 'false', '0'].includes(value)) return () => false;
  if (value === 'true') return (_a, hop) => hop < 1;
  if (/^\d+$/.test(value)) return (_a, hop) => hop < Number(value);
  const v4 = new BlockList();
  const v6 = new BlockList();
  for (const range of value.split(',').flatMap((item) => NAMED[item] ?? [item])) {
    const [address, bits] = range.split('/');
    const family = isIP(address!) === 4 ? 'ipv4' : 'ipv6';
    (family === 'ipv4' ? v4 : v6).addSubnet(address!, Number(bits ?? (family === 'ipv4' ? 32 : 128)), family);
  }
  return (address) => {
    const candidate = canonical(address);
    const family = isIP(candidate);
    if (family === 4) return v4.check(candidate, 'ipv4');
    if (family === 6) return v6.check(candidate, 'ipv6');
    return false;
  };
}

function modelClientAddress(peer: string, header: string | undefined, setting: string): string {
  const trusted = modelTrust(setting);
  const hops = [
    canonical(peer),
    ...(header ?? '')
      .split(',')
      .map((entry) => entry.replace(/^ +| +$/g, ''))
      .filter(Boolean)
      .reverse(),
  ];
  let index = 0;
  while (index < hops.length - 1 && trusted(hops[index]!, index)) index++;
  while (index > 0 && isIP(hops[index]!) === 0) index--;
  return canonical(hops[index]!);
}

const requestFrom = (peer: string, headers: Record<string, string | undefined> = {}) => ({
  socket: { remoteAddress: peer },
  headers,
});

describe('the client address behind proxies (TRUST_PROXY)', () => {
  it('matches a reference model of proxy-addr for random peers, headers and trust settings', () => {
    fc.assert(
      fc.property(socketAddress, forwardedHeader, trustSetting, (peer, header, setting) => {
        const actual = resolveClientAddress(requestFrom(peer, { 'x-forwarded-for': header }), parseProxyTrust(setting));
        expect(actual).toBe(modelClientAddress(peer, header, setting));
        // Whatever the header says, the answer is a real IP address.
        expect(isIP(actual)).not.toBe(0);
      }),
      { numRuns: 3000 },
    );
  });

  it('ignores X-Forwarded-For and CF-Connecting-IP from a peer that is not trusted', () => {
    fc.assert(
      fc.property(fc.oneof(ipv4, docV6), forwardedHeader, anyAddress, (peer, header, cdn) => {
        fc.pre(!peer.startsWith('127.') && !peer.startsWith('10.'));
        for (const setting of ['false', 'loopback', '10.0.0.0/8,cloudflare', 'loopback,cloudflare']) {
          const request = requestFrom(peer, { 'x-forwarded-for': header, 'cf-connecting-ip': cdn });
          expect(resolveClientAddress(request, parseProxyTrust(setting))).toBe(peer);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('behind the guide nginx: the address nginx appended, not what the client wrote', () => {
    const trust = parseProxyTrust('loopback');
    // The client forged entries; nginx appended the real address ($proxy_add_x_forwarded_for).
    const forged = '127.0.0.1, 10.0.0.1, 203.0.113.99';
    expect(
      resolveClientAddress(requestFrom('127.0.0.1', { 'x-forwarded-for': `${forged}, 198.51.100.23` }), trust),
    ).toBe('198.51.100.23');
    expect(resolveClientAddress(requestFrom('::ffff:127.0.0.1', { 'x-forwarded-for': '2001:db8::7' }), trust)).toBe(
      '2001:db8::7',
    );
    // Without a header (a request made on the machine itself) the peer is the client.
    expect(resolveClientAddress(requestFrom('127.0.0.1'), trust)).toBe('127.0.0.1');
  });

  it('a header with hundreds of entries gives the rightmost untrusted one', () => {
    const many = Array.from({ length: 800 }, (_, n) => `10.0.${n >> 8}.${n & 255}`).join(', ');
    const header = `${many}, 198.51.100.5, 127.0.0.1`;
    expect(
      resolveClientAddress(requestFrom('127.0.0.1', { 'x-forwarded-for': header }), parseProxyTrust('loopback')),
    ).toBe('198.51.100.5');
    // Every hop trusted: the leftmost entry is the client.
    expect(
      resolveClientAddress(
        requestFrom('127.0.0.1', { 'x-forwarded-for': many }),
        parseProxyTrust('loopback,10.0.0.0/8'),
      ),
    ).toBe('10.0.0.0');
  });

  it('junk where the client should be falls back to the nearest trusted hop', () => {
    const request = requestFrom('127.0.0.1', { 'x-forwarded-for': 'not-an-address' });
    expect(resolveClientAddress(request, parseProxyTrust('1'))).toBe('127.0.0.1');
    expect(resolveClientAddress(request, parseProxyTrust('loopback'))).toBe('127.0.0.1');
    const deep = requestFrom('127.0.0.1', { 'x-forwarded-for': '203.0.113.1, junk, 10.0.0.2' });
    expect(resolveClientAddress(deep, parseProxyTrust('2'))).toBe('10.0.0.2');
  });

  it('true means one proxy in front: the rightmost X-Forwarded-For entry, never the leftmost', () => {
    const request = requestFrom('10.9.9.9', {
      'x-forwarded-for': '1.2.3.4, 198.51.100.8',
      'cf-connecting-ip': '5.6.7.8',
    });
    expect(resolveClientAddress(request, parseProxyTrust('true'))).toBe('198.51.100.8');
    expect(resolveClientAddress(request, parseProxyTrust('TRUE'))).toBe('198.51.100.8');
    expect(resolveClientAddress(request, parseProxyTrust('false'))).toBe('10.9.9.9');
  });

  it('reads CF-Connecting-IP only when configured for Cloudflare', () => {
    const headers = { 'cf-connecting-ip': '2001:db8:5::1', 'x-forwarded-for': '198.51.100.1' };
    expect(resolveClientAddress(requestFrom('127.0.0.1', headers), parseProxyTrust('loopback'))).toBe('198.51.100.1');
    expect(resolveClientAddress(requestFrom('127.0.0.1', headers), parseProxyTrust('loopback,cloudflare'))).toBe(
      '2001:db8:5::1',
    );
    expect(resolveClientAddress(requestFrom('203.0.113.4', headers), parseProxyTrust('cloudflare'))).toBe(
      '2001:db8:5::1',
    );
    // Junk, several values or no header: the rule without it.
    for (const cdn of ['junk', '1.1.1.1, 2.2.2.2', undefined]) {
      expect(
        resolveClientAddress(
          requestFrom('127.0.0.1', { ...headers, 'cf-connecting-ip': cdn }),
          parseProxyTrust('loopback,cloudflare'),
        ),
      ).toBe('198.51.100.1');
      expect(
        resolveClientAddress(
          requestFrom('203.0.113.4', { ...headers, 'cf-connecting-ip': cdn }),
          parseProxyTrust('cloudflare'),
        ),
      ).toBe('203.0.113.4');
    }
  });

  it('parses the accepted settings', () => {
    const cases: Array<[string | undefined, ProxyTrust]> = [
      [undefined, { kind: 'none' }],
      ['', { kind: 'none' }],
      ['false', { kind: 'none' }],
      ['0', { kind: 'none' }],
      ['true', { kind: 'hops', hops: 1 }],
      ['1', { kind: 'hops', hops: 1 }],
      [' 3 ', { kind: 'hops', hops: 3 }],
      ['cloudflare', { kind: 'cdn' }],
      ['Loopback, 10.0.0.0/8', { kind: 'ranges', ranges: ['loopback', '10.0.0.0/8'], cdnHeader: false }],
      ['loopback,cloudflare', { kind: 'ranges', ranges: ['loopback'], cdnHeader: true }],
      ['192.168.0.0/255.255.0.0', { kind: 'ranges', ranges: ['192.168.0.0/255.255.0.0'], cdnHeader: false }],
    ];
    for (const [raw, expected] of cases) expect(parseProxyTrust(raw)).toEqual(expected);
  });

  it.each([
    ['maybe', 'maybe'],
    ['loopback,,10.0.0.0/8', 'empty entry'],
    ['10.0.0.0/33', '10.0.0.0/33'],
    ['300.1.1.1', '300.1.1.1'],
    ['127.1', '127.1'],
    ['loopback,true', 'stand alone'],
    ['loopback,2', 'stand alone'],
    ['17', 'between 0 and 16'],
    ['-1', '-1'],
  ])('refuses TRUST_PROXY=%j at start, naming it', (raw, mention) => {
    let thrown: unknown;
    try {
      readServeConfig({ TRUST_PROXY: raw, TURNSTILE_SECRET_KEY: 's', SITE_ORIGIN: 'https://site.example' }, tmpdir());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SsgError);
    expect((thrown as SsgError).code).toBe('ServeConfigInvalid');
    expect((thrown as SsgError).message).toMatch(/^TRUST_PROXY /);
    expect((thrown as SsgError).message).toContain(mention);
    expect((thrown as SsgError).hint).toContain('hop count');
  });

  it('any setting either parses or is refused with a plain Error (never a crash of another kind)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          trustSetting.map((s) => `${s},${s}`),
        ),
        (raw) => {
          try {
            const trust = parseProxyTrust(raw);
            // A parsed setting always resolves to an IP address.
            const address = resolveClientAddress(
              requestFrom('127.0.0.1', { 'x-forwarded-for': '198.51.100.1, junk' }),
              trust,
            );
            expect(isIP(address)).not.toBe(0);
          } catch (error) {
            expect(error).toBeInstanceOf(Error);
            expect((error as Error).message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
describe('rate-limit keys', () => {
  it('IPv4 as is; IPv4-mapped IPv6 as IPv4', () => {
    expect(rateLimitKey('203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitKey('::FFFF:cb00:7109')).toBe('203.0.113.9');
  });

  it('groups IPv6 by /64: same first four groups, same key; otherwise different keys', () => {
    expect(rateLimitKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    fc.assert(
      fc.property(
        fc.array(hextet, { minLength: 4, maxLength: 4 }),
        fc.array(hextet, { minLength: 4, maxLength: 4 }),
        fc.array(hextet, { minLength: 4, maxLength: 4 }),
        (prefix, a, b) => {
          fc.pre(!(prefix.join(':') === '0:0:0:0' || (prefix.slice(0, 3).join(':') === '0:0:0' && prefix[3] === '0'))); // leave ::ffff: mapped aside
          expect(rateLimitKey([...prefix, ...a].join(':'))).toBe(rateLimitKey([...prefix, ...b].join(':')));
        },
      ),
    );
    fc.assert(
      fc.property(ipv6, ipv6, (a, b) => {
        const sameNetwork =
          a
            .split(':')
            .slice(0, 4)
            .map((h) => parseInt(h, 16))
            .join() ===
          b
            .split(':')
            .slice(0, 4)
            .map((h) => parseInt(h, 16))
            .join();
        if (!sameNetwork) expect(rateLimitKey(a)).not.toBe(rateLimitKey(b));
      }),
    );
  });

  it('bounds the length of every key, whatever the input', () => {
    fc.assert(
      fc.property(
        fc.oneof(anyAddress, fc.string({ maxLength: 5000 }), fc.string({ unit: 'grapheme', maxLength: 200 })),
        (address) => {
          expect(rateLimitKey(address).length).toBeLessThanOrEqual(MAX_OTHER_KEY_LENGTH + 'other:'.length);
        },
      ),
    );
    expect(rateLimitKey('x'.repeat(100_000))).toBe(`other:${'x'.repeat(MAX_OTHER_KEY_LENGTH)}`);
  });
});

describe('createRateLimiter', () => {
  it('lets a client in again once the window has moved on; check counts nothing', () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 1000 });
    expect(limiter.check('1.1.1.1', 0).allowed).toBe(true);
    expect(limiter.check('1.1.1.1', 0).allowed).toBe(true);
    expect(limiter.take('1.1.1.1', 0).allowed).toBe(true);
    expect(limiter.take('1.1.1.1', 100).allowed).toBe(true);
    expect(limiter.check('1.1.1.1', 200)).toEqual({ allowed: false, retryAfterMs: 800 });
    expect(limiter.take('1.1.1.1', 200)).toEqual({ allowed: false, retryAfterMs: 800 });
    expect(limiter.take('1.1.1.1', 1000).allowed).toBe(true);
  });

  it('gives back a slot taken for what did not happen, and only that one', () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 1000 });
    expect(limiter.take('192.0.2.9', 100)).toEqual({ allowed: true });
    expect(limiter.take('192.0.2.9', 200)).toEqual({ allowed: true });
    expect(limiter.check('192.0.2.9', 300).allowed).toBe(false);
    limiter.release('192.0.2.9', 200);
    expect(limiter.stored).toBe(1);
    // Released twice, or a time never taken, or another client: nothing more is given back.
    limiter.release('192.0.2.9', 200);
    limiter.release('192.0.2.9', 250);
    limiter.release('192.0.2.10', 100);
    expect(limiter.stored).toBe(1);
    expect(limiter.take('192.0.2.9', 300)).toEqual({ allowed: true });
    expect(limiter.take('192.0.2.9', 400).allowed).toBe(false);
    limiter.release('192.0.2.9', 100);
    limiter.release('192.0.2.9', 300);
    expect([limiter.size, limiter.stored]).toEqual([0, 0]);
  });

  it('refuses limits that would let everything through', () => {
    expect(() => createRateLimiter({ limit: Number.NaN, windowMs: 1000 })).toThrow(RangeError);
    expect(() => createRateLimiter({ limit: 0, windowMs: 1000 })).toThrow(RangeError);
    expect(() => createRateLimiter({ limit: 2, windowMs: Number.NaN })).toThrow(RangeError);
  });

  it('decides as a simple per-client sliding window would (random clients and times)', () => {
    const clients = [
      '198.51.100.1',
      '198.51.100.2',
      '2001:db8:0:1::1',
      '2001:db8:0:1::2',
      '::ffff:198.51.100.1',
      'junk',
    ];
    const group = (client: string) =>
      ({ '198.51.100.1': 'a', '::ffff:198.51.100.1': 'a', '2001:db8:0:1::1': 'c', '2001:db8:0:1::2': 'c' })[client] ??
      client;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.tuple(fc.constantFrom(...clients), fc.integer({ min: 0, max: 400 }), fc.boolean()), {
          maxLength: 60,
        }),
        (limit, steps) => {
          const limiter = createRateLimiter({ limit, windowMs: 1000 });
          const model = new Map<string, number[]>();
          let now = 0;
          for (const [client, advance, counts] of steps) {
            now += advance;
            const recent = (model.get(group(client)) ?? []).filter((time) => now - time < 1000);
            const allowed = recent.length < limit;
            const decision = counts ? limiter.take(client, now) : limiter.check(client, now);
            expect(decision.allowed).toBe(allowed);
            if (!decision.allowed) expect(decision.retryAfterMs).toBe(1000 - (now - recent[0]!));
            if (allowed && counts) recent.push(now);
            model.set(group(client), recent);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps its memory bounded under a flood of distinct clients', () => {
    const limiter = createRateLimiter({ limit: 5, windowMs: 600_000, maxClients: 1000 });
    for (let n = 0; n < 200_000; n++) {
      limiter.take(`${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}.${n % 7}`, n);
      if (n % 10_000 === 0) expect(limiter.size).toBeLessThanOrEqual(1000);
    }
    expect(limiter.size).toBe(1000);
    // The most recent visitor is still remembered and counted.
    const last = `${(199_999 >> 16) & 255}.${(199_999 >> 8) & 255}.${199_999 & 255}.${199_999 % 7}`;
    for (let n = 0; n < 4; n++) expect(limiter.take(last, 200_000).allowed).toBe(true);
    expect(limiter.take(last, 200_000).allowed).toBe(false);
  });

  it('bounds the stored request times when the limit is large', () => {
    const limiter = createRateLimiter({ limit: 1000, windowMs: 600_000, maxStored: 5000 });
    for (let n = 0; n < 50_000; n++)
      limiter.take(`10.0.${(n >> 8) & 255}.${n & 255}`.replace(/\.\d+$/, `.${n % 40}`), n);
    expect(limiter.stored).toBeLessThanOrEqual(5000);
  });

  it('a million addresses in one IPv6 /64 are one client', () => {
    const limiter = createRateLimiter({ limit: 3, windowMs: 600_000 });
    const decisions = Array.from(
      { length: 1000 },
      (_, n) => limiter.take(`2001:db8:aa:bb:${n.toString(16)}::${(n * 7).toString(16)}`, n).allowed,
    );
    expect(decisions.filter(Boolean)).toHaveLength(3);
    expect(limiter.size).toBe(1);
    expect(limiter.take('2001:db8:aa:bc::1', 2000).allowed).toBe(true);
  });

  it('forgets clients idle for a whole window', () => {
    const limiter = createRateLimiter({ limit: 5, windowMs: 1000 });
    for (let n = 0; n < 500; n++) limiter.take(`192.0.2.${n % 250}`, n);
    expect(limiter.size).toBe(250);
    limiter.take('198.51.100.1', 5000);
    expect(limiter.size).toBe(1);
    expect(limiter.stored).toBe(1);
  });
});

describe('the Pages Function settings', () => {
  it.each([
    ['RATE_LIMIT_MAX', 'lots'],
    ['RATE_LIMIT_MAX', '2.5'],
    ['RATE_LIMIT_MAX', '0'],
    ['RATE_LIMIT_WINDOW_SECONDS', '-5'],
  ])('refuses %s=%j with the variable named', async (name, value) => {
    const env = {
      SITE_ORIGIN: 'https://site.example',
      TURNSTILE_SECRET_KEY: 's',
      CONTACT_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
      [name]: value,
    };
    const request = new Request('https://site.example/api/contact', { method: 'POST' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // Fails closed: 503 to the visitor, the variable named in the function's log.
      expect((await onRequest({ request, env })).status).toBe(503);
      expect(logged.mock.calls.flat().join('\n')).toContain(`[PagesSettingInvalid]`);
      expect(logged.mock.calls.flat().join('\n')).toContain(`${name} is "${value}"; set it to`);
    } finally {
      logged.mockRestore();
    }
  });
});

// ---------------------------------------------------------------------------------------------
describe('ssg serve behind a proxy (TRUST_PROXY, X-Forwarded-For)', () => {
  const ORIGIN = 'https://validators.example';
  let dir: string;
  let siteverify: Awaited<ReturnType<typeof startSiteverify>>;
  const message = (token: string) => ({
    name: 'Ada',
    email: 'ada@example.org',
    subject: 'Staking',
    message: 'Hello',
    turnstileToken: token,
  });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ssg-proxy-'));
    await mkdir(path.join(dir, 'dist'));
    await writeFile(path.join(dir, 'dist', 'index.html'), '<!doctype html><title>t</title>');
    siteverify = await startSiteverify('validators.example');
  });
  afterAll(async () => {
    await siteverify?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const start = (trust: string) =>
    ServeProcess.start(dir, {
      PORT: '0',
      DATA_DIR: path.join(dir, `data-${trust}`),
      SITE_ORIGIN: ORIGIN,
      TURNSTILE_SECRET_KEY: 'proxy-secret',
      TURNSTILE_VERIFY_URL: siteverify.url,
      SMTP_HOST: '',
      RATE_LIMIT_MAX: '2',
      TRUST_PROXY: trust,
    });
  const send = (url: string, body: unknown, forwardedFor?: string) =>
    fetch(`${url}/api/contact`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: ORIGIN,
        ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it("TRUST_PROXY=loopback: each visitor has their own limit, and junk uses up nobody's", async () => {
    const serve = await start('loopback');
    try {
      // One visitor sends junk and bad tokens: nobody else is affected, and nor are their own slots.
      for (let n = 0; n < 6; n++) expect((await send(serve.url, '{"junk', '198.51.100.66')).status).toBe(400);
      for (let n = 0; n < 3; n++) expect((await send(serve.url, message('expired'), '198.51.100.66')).status).toBe(403);
      expect((await send(serve.url, message('pass-a'), '198.51.100.66')).status).toBe(200);
      // Two visitors behind the same proxy, with forged entries on the left.
      for (let n = 0; n < 2; n++)
        expect((await send(serve.url, message(`pass-b${n}`), '127.0.0.1, 203.0.113.1')).status).toBe(200);
      expect(siteverify.requests.at(-1)).toMatchObject({ remoteip: '203.0.113.1' });
      const limited = await send(serve.url, message('pass-b3'), '9.9.9.9, 203.0.113.1');
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(500);
      expect((await send(serve.url, message('pass-c'), '203.0.113.2')).status).toBe(200);
      expect((await send(serve.url, message('pass-d'), '2001:db8:1:2::1')).status).toBe(200);
      expect((await send(serve.url, message('pass-e'), '2001:db8:1:2::ffff')).status).toBe(200);
      expect((await send(serve.url, message('pass-f'), '2001:db8:1:2:abcd::1')).status).toBe(429); // same /64
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });

  it('TRUST_PROXY=false: X-Forwarded-For is ignored and the peer is the client', async () => {
    const serve = await start('false');
    try {
      expect((await send(serve.url, message('pass-g'), '198.51.100.70')).status).toBe(200);
      expect(siteverify.requests.at(-1)).toMatchObject({ remoteip: '127.0.0.1' });
      expect((await send(serve.url, message('pass-h'), '198.51.100.71')).status).toBe(200);
      expect((await send(serve.url, message('pass-i'), '198.51.100.72')).status).toBe(429);
    } finally {
      await serve.stop();
    }
  });

  it('refuses to start with an invalid TRUST_PROXY, naming it and what to do', async () => {
    const result = await runCli(['serve'], dir, {
      TRUST_PROXY: 'loopback,10.0.0.0/99',
      TURNSTILE_SECRET_KEY: 's',
      SITE_ORIGIN: ORIGIN,
      PORT: String(await freePort()),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('TRUST_PROXY has "10.0.0.0/99"');
    expect(result.stderr).toContain('hint:');
    expect(result.stderr).not.toContain('Unexpected internal error');
  });
});
