import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { launchBrowser } from './browser.ts';
import { DevProcess } from './dev-process.ts';
import { copyBuiltSite } from './real-site.ts';
import { TempSite, type CliResult } from './project.ts';

export { CHALLENGE_STAND_IN_PATH, challengeStandIn } from './real-site.ts';

/** The run's one built copy of the real site, shared by every test file: it refuses changes. */
class SharedSite extends TempSite {
  private refuse(what: string): never {
    throw new Error(
      `${what}: the shared real site is read by other test files at the same time; take a copy with buildRealSite()`,
    );
  }
  override write(relative: string): Promise<void> {
    return this.refuse(`write ${relative}`);
  }
  override remove(relative: string): Promise<void> {
    return this.refuse(`remove ${relative}`);
  }
  override run(args: string[]): Promise<CliResult> {
    return this.refuse(`ssg ${args.join(' ')}`);
  }
  /** Removed by the global set-up at the end of the run, not by a test file. */
  override async dispose(): Promise<void> {}
}

/** A copy of the built real site under `ssg dev`, and a Chromium, for the tests of one describe block. */
export function realSiteInDev(): { site: TempSite; dev: DevProcess; browser: Browser } {
  const session = {} as { site: TempSite; dev: DevProcess; browser: Browser };
  beforeAll(async () => {
    session.site = await realSiteCopy();
    session.dev = await DevProcess.start(session.site.dir);
    session.browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await session.browser?.close();
    await session.dev?.stop();
    await session.site?.dispose();
  });
  return session;
}

/**
 * The real site as the global set-up built it (tests/setup/real-site.ts): its challenge script is
 * the local stand-in, served as a public file. For test files that only read or serve it.
 */
export function sharedRealSite(): TempSite {
  return new SharedSite(inject('realSite'));
}

/** A copy of the built real site of its own, not built again: `dist/` and `.cache/` as the set-up left them. */
export function realSiteCopy(): Promise<TempSite> {
  return copyBuiltSite(inject('realSite'));
}

/**
 * A copy of the built real site of its own (output and caches included, so the build is warm),
 * built again after `prepare` has added articles or edited content. For tests that change it.
 */
export async function buildRealSite(prepare?: (site: TempSite) => Promise<void>): Promise<TempSite> {
  const site = await realSiteCopy();
  await prepare?.(site);
  const result = await site.run(['build']);
  expect(result.stderr).not.toMatch(/Build failed/);
  expect(result.code).toBe(0);
  return site;
}
