// The list of optional features: which a site's definition turns on, and dev's sessions, which
// answer only for a feature the last good build turned on.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { devSessions, featuresOn } from '../src/pipeline/features.ts';

const site = { routes: ['/', '/news', '/news/:slug'], siteFile: 'site/index.tsx' };
const editor = { backend: { repo: 'owner/name' } };

describe('featuresOn', () => {
  it('turns on only the features whose option is set', () => {
    expect(featuresOn({}, site)).toEqual([]);
    expect(featuresOn({ editor }, site).map((one) => one.feature.option)).toEqual(['editor']);
    const both = featuresOn({ editor, search: { indexed: ['/news/:slug'], pages: ['/news'] } }, site);
    expect(both.map((one) => one.feature.option).sort()).toEqual(['editor', 'search']);
  });

  it("checks a feature's option against the site as it turns it on", () => {
    expect(() => featuresOn({ search: { indexed: ['/nowhere'], pages: ['/news'] } }, site)).toThrow(/nowhere/);
  });
});

describe('devSessions', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** Dev's output holding an `admin/config.json` of the site's own (its public folder's). */
  function outputWithAdminConfig(): string {
    const root = mkdtempSync(path.join(tmpdir(), 'ssg-features-'));
    dirs.push(root);
    mkdirSync(path.join(root, 'out', 'admin'), { recursive: true });
    writeFileSync(path.join(root, 'out', 'admin', 'config.json'), '{"mine":true}\n');
    return root;
  }

  it('leaves a site without the editor its own /admin: no backend, no headers, its pages reload', async () => {
    const root = outputWithAdminConfig();
    const warnings: string[] = [];
    const sessions = devSessions(
      { root, outDir: path.join(root, 'out'), warn: (line) => warnings.push(line), headersFor: () => ({ A: 'b' }) },
      () => false,
      (line) => warnings.push(line),
    );
    await sessions.start();
    expect(sessions.owns('/admin/')).toBe(false);
    expect(sessions.headers('/admin/config.json')).toEqual({});
    const response = { writeHead: () => response, end: () => response } as unknown as ServerResponse;
    expect(await sessions.serve('/admin/config.json', response)).toBe(false);
    await sessions.close();
    expect(warnings).toEqual([]);
  });

  it("answers for the editor's paths while the build turned it on", () => {
    const root = outputWithAdminConfig();
    const sessions = devSessions(
      { root, outDir: path.join(root, 'out'), warn: () => {}, headersFor: () => ({ 'X-Robots-Tag': 'noindex' }) },
      (option) => option === 'editor',
      () => {},
    );
    expect(sessions.owns('/admin/')).toBe(true);
    expect(sessions.owns('/about')).toBe(false);
    expect(sessions.headers('/admin/')).toEqual({ 'X-Robots-Tag': 'noindex' });
    expect(sessions.headers('/about')).toEqual({});
  });
});
