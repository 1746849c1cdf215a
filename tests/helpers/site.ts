import { expect } from 'vitest';
import { copySite, repoRoot, type TempSite } from './project.ts';

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

/**
 * A copy of the real site in a temporary folder, built. The challenge script points at a local
 * stand-in so no test ever reaches the provider; `prepare` may add articles or edit content first.
 */
export async function buildRealSite(prepare?: (site: TempSite) => Promise<void>): Promise<TempSite> {
  const site = await copySite(repoRoot, ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots', 'test-results']);
  const config = await site.read('content/site.yaml');
  await site.write(
    'content/site.yaml',
    config.replace(/scriptUrl: .*/, `scriptUrl: ${CHALLENGE_STAND_IN_PATH}?render=explicit`),
  );
  await prepare?.(site);
  const result = await site.run(['build']);
  expect(result.stderr).not.toMatch(/Build failed/);
  expect(result.code).toBe(0);
  return site;
}
