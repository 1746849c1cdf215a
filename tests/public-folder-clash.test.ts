// Entries of the public folder the build would write into, or over: named by `build` and by dev
// mode alike before anything is written, never reported as an output folder that is not writable.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeProblems } from '../src/dev/dev.ts';
import { build } from '../src/pipeline/build.ts';
import { createIncrementalBuild, type IncrementalBuild } from '../src/pipeline/incremental.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

describe('a public folder at the path of a file the build makes', () => {
  let site: TempSite;
  let dev: IncrementalBuild;
  const buildProblems = () => build({ root: site.dir, outDir: 'dist', warn: () => {} }).then(() => [], describeProblems);
  const devProblems = (changed: string) => dev.update([site.file(changed)]).then(() => [], describeProblems);

  beforeAll(async () => {
    site = await copySite(fixture);
    dev = await createIncrementalBuild({ root: site.dir, outDir: '.cache/ssg/dev', warn: () => {} });
    await dev.initial();
  }, 120_000);
  afterAll(async () => {
    await dev?.dispose();
    await site?.dispose();
  });

  it('a site file (the sitemap): named by dev as by build, and dev recovers once it is gone', async () => {
    await site.write('site/public/sitemap.xml/a.txt', 'a');
    const problems = await devProblems('site/public/sitemap.xml/a.txt');
    expect(problems).toEqual([
      expect.objectContaining({
        code: 'PublicFileClash',
        where: 'site/public/sitemap.xml/a.txt',
        message: 'The public file sitemap.xml/a.txt is inside sitemap.xml, which the build writes as a file.',
      }),
    ]);
    expect(await buildProblems()).toEqual(problems);
    expect(existsSync(site.file('dist'))).toBe(false);

    await site.remove('site/public/sitemap.xml');
    expect(await devProblems('site/public/sitemap.xml/a.txt')).toEqual([]);
    expect(readFileSync(path.join(dev.outDir, 'sitemap.xml'), 'utf8')).toContain('<urlset');
    expect(await buildProblems()).toEqual([]);
  });
});
