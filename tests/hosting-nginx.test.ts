import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, get, securityHeaders, missingHeaders, someAsset } from './helpers/hosting-checks.ts';
import { hostingSuite } from './helpers/hosting-suite.ts';
import { nginxConfig, guideNginxBlock, startNginx, type RunningNginx } from './helpers/nginx.ts';
import { CHALLENGE_STAND_IN_PATH, challengeStandIn } from './helpers/site.ts';

/** Stands in for `ssg serve` behind nginx: records the headers of what reaches it. */
function startApiStandIn() {
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    received.push(request.headers);
    request.resume();
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
  });
  return new Promise<{ port: number; received: IncomingHttpHeaders[]; close(): Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        received,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}

describe('the nginx block of the deploy guide, run by Debian nginx', () => {
  let api: Awaited<ReturnType<typeof startApiStandIn>>;
  let nginx: RunningNginx;
  beforeAll(async () => {
    api = await startApiStandIn();
  });
  afterAll(async () => {
    await api?.close();
  });

  // The block as the guide has it: the headers come from the file the build wrote, untouched.
  const { context } = hostingSuite(async (site) => {
    nginx = await startNginx({ root: site.file('dist'), apiPort: api.port });
    return nginx;
  });

  it('never serves the host configuration files, the nginx headers file included', async () => {
    for (const urlPath of [
      '/_headers',
      '/_headers.nginx.conf',
      '/%5Fheaders.nginx.conf',
      '/_headers.nginx.conf/',
      '/_redirects',
    ]) {
      const answer = await get(nginx.url + urlPath);
      expect({ urlPath, status: answer.status }).toEqual({ urlPath, status: 404 });
      expect(answer.body).not.toMatch(/add_header|Content-Security-Policy:/);
    }
  });

  it("redirects a page's trailing-slash twin once, permanently, to the page, keeping the query", async () => {
    for (const [urlPath, target] of [
      ['/about/', '/about'],
      ['/news/', '/news'],
      ['/news/hello-world/', '/news/hello-world'],
      ['/news/hello-world/?utm_source=x&a=%0d%0a', '/news/hello-world?utm_source=x&a=%0d%0a'],
    ] as const) {
      const answer = await get(nginx.url + urlPath);
      expect({ urlPath, status: answer.status }).toEqual({ urlPath, status: 301 });
      expect(
        new URL(answer.headers.get('location')!, nginx.url).pathname +
          new URL(answer.headers.get('location')!, nginx.url).search,
      ).toBe(target);
      // Once: the target itself is the page.
      expect((await get(new URL(answer.headers.get('location')!, nginx.url).href)).status).toBe(200);
    }
  });

  it('answers a trailing-slash path that is no page with the nearest 404 page, never a folder listing, 403 or a redirect', async () => {
    for (const [urlPath, page] of [
      ['/assets/', 'general'],
      ['/nope/', 'general'],
      ['/news/unknown/', 'news'],
      ['/news/unknown%0d%0aSet-Cookie:x/', 'news'],
      ['/news/tags/', 'news'],
    ] as const) {
      const answer = await get(nginx.url + urlPath);
      expect({ urlPath, status: answer.status }).toEqual({ urlPath, status: 404 });
      expect(answer.headers.get('location')).toBeNull();
      expect(answer.headers.get('set-cookie')).toBeNull();
      expect(answer.body).toContain('Not found');
      const newsNotFound = await context().site.read('dist/news/404.html');
      expect({ urlPath, news: answer.body === newsNotFound }).toEqual({ urlPath, news: page === 'news' });
    }
  });

  it('serves the precompressed assets with Vary: Accept-Encoding', async () => {
    const asset = await someAsset(context().dist);
    const answer = await get(nginx.url + asset, { 'Accept-Encoding': 'gzip' });
    expect(answer.headers.get('content-encoding')).toBe('gzip');
    expect(answer.headers.get('vary')).toMatch(/Accept-Encoding/i);
  });

  it('forwards the contact endpoint with Host, X-Forwarded-For and X-Forwarded-Proto, with the security headers', async () => {
    const answer = await get(`${nginx.url}/api/contact`);
    expect(answer.status).toBe(200);
    expect(missingHeaders(answer.headers, await securityHeaders(context().dist))).toEqual([]);
    const forwarded = api.received.at(-1)!;
    // The visitor's host, not nginx's default (the upstream's address and port).
    expect(forwarded.host).toBe('127.0.0.1');
    expect(forwarded['x-forwarded-for']).toBe('127.0.0.1');
    expect(forwarded['x-forwarded-proto']).toBe('http');
  });

  it('logs no warning or error while serving', async () => {
    expect(await nginx.errorLog()).not.toMatch(/\[(warn|error|crit|alert|emerg)\]/);
  });

  // Last: it rebuilds the site under the running nginx.
  it('after a style change and a rebuild, nginx loading its configuration again sends the new style hash', async () => {
    const { site, dist } = context();
    const before = (await securityHeaders(dist))['Content-Security-Policy'];
    await site.write(
      'site/styles/index.css',
      `${await site.read('site/styles/index.css')}\n.rebuilt-for-nginx { color: red; }\n`,
    );
    expect((await site.run(['build'])).code).toBe(0);
    await site.write(`dist${CHALLENGE_STAND_IN_PATH}`, challengeStandIn);
    const after = (await securityHeaders(dist))['Content-Security-Policy'];
    expect(after).not.toBe(before);
    expect(await site.read('dist/index.html')).toContain('.rebuilt-for-nginx');
    // Until it is reloaded, nginx keeps the headers it read at start: why the guide says to reload.
    expect((await get(`${nginx.url}/`)).headers.get('content-security-policy')).toBe(before);
    // A fresh start reads the block and its include as a reload does (SIGHUP is not reliable in
    // the tests' single-process mode).
    const reloaded = await startNginx({ root: dist, apiPort: api.port });
    try {
      expect((await get(`${reloaded.url}/`)).headers.get('content-security-policy')).toBe(after);
      expect(await cspViolations(reloaded.url, ['/', '/news/hello-world', '/nope'])).toEqual([]);
      expect(await reloaded.errorLog()).not.toMatch(/\[(warn|error|crit|alert|emerg)\]/);
    } finally {
      await reloaded.close();
    }
  });
});

describe('nginxConfig', () => {
  it('fails loudly when the guide block no longer has the lines the tests replace', async () => {
    const block = await guideNginxBlock();
    const options = { root: '/tmp/x', port: 1, apiPort: 2, workDir: '/tmp/w' };
    expect(nginxConfig(block, options)).toContain('listen 127.0.0.1:1;');
    expect(() => nginxConfig(block.replace('listen 80;', 'listen 8080;'), options)).toThrow(/listen 80/);
    expect(() => nginxConfig(`${block}\nroot /srv/site/dist;`, options)).toThrow(/found 2/);
    expect(() => nginxConfig(block.replace('include /srv/site/dist/_headers.nginx.conf;', ''), options)).toThrow(
      /_headers/,
    );
  });

  it('keeps no copy of the security headers in the guide: they come from the build only', async () => {
    const block = await guideNginxBlock();
    expect(block).not.toMatch(/add_header (Content-Security-Policy|Strict-Transport-Security|X-Frame-Options)|sha256-/);
    expect(block).toMatch(/^\s*include \/srv\/site\/dist\/_headers\.nginx\.conf;$/m);
  });
});
