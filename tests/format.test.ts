// Every file prettier formats is as prettier writes it (`npx prettier --write .` fixes one that
// is not): one style, so a change's diff shows what it changes.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/project.ts';

const ignorePath = path.join(repoRoot, '.prettierignore');

describe('formatting', () => {
  it('leaves every file prettier formats as prettier writes it', async () => {
    const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: repoRoot,
      encoding: 'utf8',
    })
      .split('\0')
      .filter(Boolean);
    const unformatted: string[] = [];
    let checked = 0;
    for (const file of tracked) {
      const absolute = path.join(repoRoot, file);
      const info = await prettier.getFileInfo(absolute, { ignorePath });
      if (!existsSync(absolute) || info.ignored || info.inferredParser === null) continue;
      const options = await prettier.resolveConfig(absolute);
      checked++;
      if (!(await prettier.check(readFileSync(absolute, 'utf8'), { ...options, filepath: absolute })))
        unformatted.push(file);
    }
    expect(checked).toBeGreaterThan(200);
    expect(unformatted, 'run npx prettier --write on these').toEqual([]);
  });
});
