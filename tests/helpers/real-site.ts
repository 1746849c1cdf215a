import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot, runCli, TempSite } from './project.ts';

/** Where the test server serves its stand-in for the bot-challenge provider's script. */
export const CHALLENGE_STAND_IN_PATH = '/__stand-in/challenge/api.js';

/**
 * Stands in for the bot-challenge provider: `turnstile.render` draws a button that calls the
 * callback with a token, `reset` is recorded. It is served after a delay, so the form has to
 * poll for it as it would for the real, slower script.
 */
export const challengeStandIn = `
window.__challenge = { renders: [], resets: [] };
window.turnstile = {
  render(container, options) {
    window.__challenge.renders.push({ sitekey: options.sitekey });
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'I am human';
    button.onclick = () => options.callback('stand-in-token-' + window.__challenge.renders.length);
    container.append(button);
    return 'widget-1';
  },
  reset(id) {
    window.__challenge.resets.push(id);
  },
};`;

/** What of the repository is not the site: never copied into a test's copy of it. */
const NOT_THE_SITE = ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots', 'test-results', 'data'];

/**
 * Copies the real site into a new temporary folder and builds it there, once per test run (the
 * global set-up, tests/setup/real-site.ts). The challenge script points at a local stand-in, also
 * shipped as a public file of the copy, so no test ever reaches the provider and `serve`, which
 * only serves files, can hand it out. Throws (with the build's output) when the build fails.
 */
export async function buildSharedRealSite(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ssg-real-site-'));
  await cp(repoRoot, dir, {
    recursive: true,
    filter: (file) => !NOT_THE_SITE.includes(path.relative(repoRoot, file).split(path.sep)[0]!),
  });
  const config = path.join(dir, 'content', 'site.yaml');
  await writeFile(
    config,
    (await readFile(config, 'utf8')).replace(/scriptUrl: .*/, `scriptUrl: ${CHALLENGE_STAND_IN_PATH}?render=explicit`),
  );
  const standIn = new TempSite(dir);
  await standIn.write(`site/public${CHALLENGE_STAND_IN_PATH}`, challengeStandIn);
  const result = await runCli(['build'], dir);
  if (result.code !== 0)
    throw new Error(`The real site did not build (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  return dir;
}

/** A throw-away copy of a built site, its output and caches included, so its next build is warm. */
export async function copyBuiltSite(source: string): Promise<TempSite> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ssg-test-'));
  await cp(source, dir, { recursive: true, verbatimSymlinks: true });
  return new TempSite(dir);
}
