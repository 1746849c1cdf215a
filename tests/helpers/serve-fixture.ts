import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { copySite, repoRoot, type TempSite } from './project.ts';
import { ServeProcess } from './serve-process.ts';
import { startSiteverify } from './stand-ins.ts';

export interface ServedFixture {
  site: TempSite;
  serve: ServeProcess;
  port: number;
  /** Stops `serve` (and says whether it was still running, as it must be), then cleans up. */
  close(): Promise<void>;
}

/**
 * The basic fixture site, built, served by `ssg serve` as a process on 127.0.0.1 with the
 * bot-challenge stand-in and no SMTP (messages wait in the inbox). `prepare` runs after the build,
 * before the server starts (extra files in `dist/`).
 */
export async function serveBuiltFixture(prepare?: (site: TempSite) => Promise<void>): Promise<ServedFixture> {
  const site = await copySite(path.join(repoRoot, 'tests', 'fixtures', 'basic'));
  const built = await site.run(['build']);
  expect(built.code, built.stderr).toBe(0);
  await prepare?.(site);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ssg-data-'));
  const siteverify = await startSiteverify('fixture.example');
  const serve = await ServeProcess.start(site.dir, {
    PORT: '0',
    DATA_DIR: dataDir,
    SITE_ORIGIN: 'https://fixture.example',
    TURNSTILE_SECRET_KEY: 'fuzz-secret',
    TURNSTILE_VERIFY_URL: siteverify.url,
    RATE_LIMIT_MAX: '100000',
  });
  return {
    site,
    serve,
    port: Number(new URL(serve.url).port),
    async close() {
      await serve.stop();
      await siteverify.close();
      await rm(dataDir, { recursive: true, force: true });
      await site.dispose();
    },
  };
}
