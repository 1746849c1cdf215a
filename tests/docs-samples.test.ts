// The code samples of the guides that are whole files (their first line names the file,
// `// site/pages/careers.tsx`) compile: each guide's, put at those paths in a copy of the site's
// code, type-checked under the repository's strict settings against ssg's own types.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/project.ts';

const run = promisify(execFile);
const SAMPLE = /^```tsx?\n\/\/ (site\/[\w./-]+\.tsx?)\n([\s\S]*?)^```$/gm;

/** Each guide with whole-file samples, and those samples by path. */
async function guidesWithSamples(): Promise<Array<{ guide: string; files: Map<string, string> }>> {
  const docs = (await readdir(path.join(repoRoot, 'docs'))).filter((name) => name.endsWith('.md')).sort();
  const found = [];
  for (const guide of docs) {
    const text = await readFile(path.join(repoRoot, 'docs', guide), 'utf8');
    const files = new Map([...text.matchAll(SAMPLE)].map((match) => [match[1]!, `// ${match[1]}\n${match[2]}`]));
    if (files.size > 0) found.push({ guide, files });
  }
  return found;
}

describe('the guides’ code samples', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('are found in the guides that teach a file', async () => {
    const guides = (await guidesWithSamples()).map((found) => found.guide);
    expect(guides).toEqual(expect.arrayContaining(['add-a-page.md', 'collections.md', 'islands.md']));
  });

  it('compile under tsc --strict, each guide’s in a copy of the site', async () => {
    const failures: string[] = [];
    for (const { guide, files } of await guidesWithSamples()) {
      await mkdir(path.join(repoRoot, '.cache'), { recursive: true });
      const dir = await mkdtemp(path.join(repoRoot, '.cache', 'doc-samples-'));
      dirs.push(dir);
      await cp(path.join(repoRoot, 'site'), path.join(dir, 'site'), { recursive: true });
      for (const [file, code] of files) await writeFile(path.join(dir, file), code);
      const tsconfig = {
        extends: path.join(repoRoot, 'tsconfig.json'),
        compilerOptions: { baseUrl: repoRoot },
        include: [...files.keys()],
      };
      await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
      const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
      await run(process.execPath, [tsc, '--noEmit', '-p', dir]).catch((error: { stdout: string }) =>
        failures.push(`${guide}:\n${error.stdout}`),
      );
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
