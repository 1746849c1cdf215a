// `ssg serve` and `preview` failures at start: each under its own name, headed by the command,
// exit 1, never "Unexpected internal error"; a site's API route that throws, exports nothing or
// does not compile is named at its file (and line).
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySite, repoRoot, runCli, type CliResult } from './helpers/project.ts';
import { withSiteApi } from './helpers/serve-process.ts';

const MARK = '// <- throws here';
const lineOf = (source: string) => source.split('\n').findIndex((line) => line.includes(MARK)) + 1;

let root: string;
let blocker: Server;
let busyPort: number;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ssg-serve-errors-'));
  await mkdir(path.join(root, 'dist'));
  await writeFile(path.join(root, 'dist', 'index.html'), '<!doctype html><title>t</title>');
  blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  busyPort = (blocker.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => blocker.close(resolve));
  await rm(root, { recursive: true, force: true });
});

/** A folder with dist/ and the given API route files (and nothing else in site/api/). */
async function siteWithRoutes(routes: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(root, 'site-'));
  await mkdir(path.join(dir, 'dist'));
  await writeFile(path.join(dir, 'dist', 'index.html'), '<!doctype html><title>t</title>');
  await mkdir(path.join(dir, 'site', 'api'), { recursive: true });
  for (const [name, source] of Object.entries(routes)) await writeFile(path.join(dir, 'site', 'api', name), source);
  return dir;
}

const serveEnv = (dataDir: string) => ({
  PORT: String(busyPort),
  SITE_ORIGIN: 'https://site.example',
  TURNSTILE_SECRET_KEY: 's',
  DATA_DIR: dataDir,
});

function expectNamedFailure(result: CliResult, heading: string, text: string) {
  expect(result.code, result.stderr).toBe(1);
  // Warnings of the build (the fixture's raw HTML) may come first; the failure is headed.
  expect(result.stderr.split('\n').find((line) => !line.startsWith('warning '))).toBe(heading);
  expect(result.stderr).toContain(text);
  expect(result.stderr).toContain('hint:');
  expect(result.stderr).not.toContain('Unexpected internal error');
  expect(result.stderr).not.toContain('Build failed');
}

describe('serve and preview at start', () => {
  it('serve with no built site: SiteDirMissing, headed "Serve failed"', async () => {
    withSiteApi(root);
    const result = await runCli(
      ['serve', '--dir', 'nowhere', '--port', '0'],
      root,
      serveEnv(path.join(root, 'data-a')),
    );
    expectNamedFailure(
      result,
      'Serve failed',
      `[SiteDirMissing] There is no built site\n  ${path.join(root, 'nowhere')}: There is no built site in`,
    );
  });

  it('serve on a port in use: PortInUse', async () => {
    const result = await runCli(['serve'], root, serveEnv(path.join(root, 'data-b')));
    expectNamedFailure(
      result,
      'Serve failed',
      `[PortInUse] The port is in use\n  Port ${busyPort} on 127.0.0.1 is in use.`,
    );
  });

  it('serve on an address that is not this machine: HostUnavailable', async () => {
    // 192.0.2.1 is TEST-NET-1: never assigned to this machine, so listening there fails at once.
    const result = await runCli(['serve'], root, {
      ...serveEnv(path.join(root, 'data-c')),
      HOST: '192.0.2.1',
      PORT: '0',
    });
    expectNamedFailure(
      result,
      'Serve failed',
      '[HostUnavailable] The address is not on this machine\n  192.0.2.1 is not an address',
    );
  });

  it('preview on a port in use: PortInUse, headed "Preview failed"', async () => {
    const result = await runCli(['preview', '--port', String(busyPort)], root);
    expectNamedFailure(
      result,
      'Preview failed',
      `[PortInUse] The port is in use\n  Port ${busyPort} on 127.0.0.1 is in use.`,
    );
  });

  it('dev on a port in use (--port given): PortInUse, headed "Dev server failed"', async () => {
    const site = await copySite(path.join(repoRoot, 'tests', 'fixtures', 'basic'));
    try {
      const result = await runCli(['dev', '--port', String(busyPort)], site.dir);
      expectNamedFailure(
        result,
        'Dev server failed',
        `[PortInUse] The port is in use\n  Port ${busyPort} on 127.0.0.1 is in use.`,
      );
    } finally {
      await site.dispose();
    }
  });

  it('preview with no built site: SiteDirMissing', async () => {
    const result = await runCli(['preview', '--dir', 'nowhere', '--port', '0'], root);
    expectNamedFailure(result, 'Preview failed', '[SiteDirMissing]');
  });

  it('an inbox that is not a database: InboxUnreadable, headed "Inbox failed"', async () => {
    const notADatabase = path.join(root, 'bad-data');
    await mkdir(notADatabase, { recursive: true });
    await writeFile(
      path.join(notADatabase, 'inbox.sqlite'),
      'this is not a database, it is text long enough to be read as a header',
    );
    const result = await runCli(['inbox', 'list', '--data-dir', notADatabase], root);
    expectNamedFailure(
      result,
      'Inbox failed',
      `[InboxUnreadable] The inbox cannot be read\n  ${path.join(notADatabase, 'inbox.sqlite')}: The inbox cannot be read (SQLITE_NOTADB)`,
    );
  });
});

describe("a site's API routes at serve start", () => {
  const ok = `import { defineApiRoute } from 'ssg/server';\nexport default defineApiRoute({ create: () => async () => new Response('ok') });\n`;

  it('a route that throws while it is loaded is named at its file and line', async () => {
    const source = `import { defineApiRoute } from 'ssg/server';\nconst ready = Date.now() < 0;\nif (!ready) throw new Error('not ready'); ${MARK}\nexport default defineApiRoute({ create: () => async () => new Response('ok') });\n`;
    const dir = await siteWithRoutes({ 'ok.ts': ok, 'broken.ts': source });
    const result = await runCli(['serve', '--port', '0'], dir, serveEnv(path.join(dir, 'data')));
    expectNamedFailure(
      result,
      'Serve failed',
      `[ApiRouteThrew] An API route threw while loading or setting up\n  site/api/broken.ts:${lineOf(source)}:`,
    );
    expect(result.stderr).toContain('not ready');
  });

  it('a route whose create() throws is named at its file and line', async () => {
    const source = `import { defineApiRoute } from 'ssg/server';\nexport default defineApiRoute({\n  create() {\n    throw new Error('no key'); ${MARK}\n  },\n});\n`;
    const dir = await siteWithRoutes({ 'setup.ts': source });
    const result = await runCli(['serve', '--port', '0'], dir, serveEnv(path.join(dir, 'data')));
    expectNamedFailure(
      result,
      'Serve failed',
      `[ApiRouteThrew] An API route threw while loading or setting up\n  site/api/setup.ts:${lineOf(source)}:`,
    );
  });

  it('a route file that exports no route: ApiRouteInvalid', async () => {
    const dir = await siteWithRoutes({ 'empty.ts': 'export const nothing = 1;\n' });
    const result = await runCli(['serve', '--port', '0'], dir, serveEnv(path.join(dir, 'data')));
    expectNamedFailure(
      result,
      'Serve failed',
      '[ApiRouteInvalid] An API route file exports no route\n  site/api/empty.ts: site/api/empty.ts does not default-export an API route.',
    );
  });

  it('a route that does not compile: ApiRouteCompileFailed at its line', async () => {
    const dir = await siteWithRoutes({ 'syntax.ts': 'export default {\n  create( => 1,\n};\n' });
    const result = await runCli(['serve', '--port', '0'], dir, serveEnv(path.join(dir, 'data')));
    expectNamedFailure(
      result,
      'Serve failed',
      '[ApiRouteCompileFailed] An API route does not compile\n  site/api/syntax.ts:2:',
    );
  });

  it('serves each route at /api/<name>, helpers that are not routes nowhere, writing nothing into the site', async () => {
    const dir = await siteWithRoutes({ 'hello-world.ts': ok, '_helper.ts': ok });
    const { ServeProcess } = await import('./helpers/serve-process.ts');
    const serve = await ServeProcess.start(dir, { ...serveEnv(path.join(dir, 'data')), PORT: '0' });
    try {
      expect(await (await fetch(`${serve.url}/api/hello-world`)).text()).toBe('ok');
      expect((await fetch(`${serve.url}/api/_helper`)).status).toBe(404);
      expect((await fetch(`${serve.url}/api/contact`)).status).toBe(404);
      // The routes are compiled outside the site: a server may run from a read-only copy.
      expect(existsSync(path.join(dir, '.cache'))).toBe(false);
    } finally {
      await serve.stop();
    }
  });
});
