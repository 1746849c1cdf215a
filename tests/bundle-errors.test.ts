// An import esbuild cannot resolve is no syntax error: a missing package is named once, however
// many files import it, with the command that installs it; a missing file is named as one.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { fromEsbuildFailure, packageOf } from '../src/base/esbuild-plugins.ts';
import { SsgError, SsgErrorList } from '../src/errors/errors.ts';

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

/** esbuild's failure for a site of these files, with `entry` as the entry point, as our errors. */
async function failureOf(files: Record<string, string>, entry: string): Promise<SsgError[]> {
  root = await mkdtemp(path.join(tmpdir(), 'ssg-bundle-errors-'));
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(root, file), text);
  const error = await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    write: false,
    logLevel: 'silent',
    absWorkingDir: root,
  }).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  const ours = fromEsbuildFailure(error, 'SiteCompileFailed', root);
  return ours instanceof SsgErrorList ? ours.errors : [ours as SsgError];
}

describe('imports that cannot be resolved', () => {
  it('names a missing package once, with how many files import it and the install command', async () => {
    const errors = await failureOf(
      {
        'package.json': '{ "dependencies": {} }',
        'index.js': "import './a.js';\nimport './b.js';\nimport { x } from 'not-installed-pkg/sub';\nconsole.log(x);\n",
        'a.js': "import 'not-installed-pkg';\n",
        'b.js': "import '@scope/not-installed/deep/file.js';\n",
      },
      'index.js',
    );
    const missing = errors.filter((error) => error.code === 'PackageMissing');
    expect(missing.map((error) => error.message).sort()).toEqual([
      'The package "@scope/not-installed" is imported but is not installed in node_modules.',
      'The package "not-installed-pkg" is imported by 2 files but is not installed in node_modules.',
    ]);
    expect(missing.find((error) => error.message.includes('"not-installed-pkg"'))!.hint).toBe(
      'Install it: npm install not-installed-pkg',
    );
    expect(errors.every((error) => error.code === 'PackageMissing')).toBe(true);
  });

  it('says to move a devDependency to dependencies, for an install with --omit=dev', async () => {
    const [error] = await failureOf(
      {
        'package.json': '{ "devDependencies": { "left-out": "^1.0.0" } }',
        'index.js': "import 'left-out/jsx-runtime';\n",
      },
      'index.js',
    );
    expect(error!.code).toBe('PackageMissing');
    expect(error!.file).toBe('index.js');
    expect(error!.line).toBe(1);
    expect(error!.hint).toContain('npm install --save-prod left-out');
  });

  it('names a missing file as such, and keeps syntax errors as compile failures', async () => {
    const errors = await failureOf(
      { 'index.js': "import './nope.js';\nimport './bad.js';\n", 'bad.js': 'const = 1;\n' },
      'index.js',
    );
    expect(errors.map((error) => error.code).sort()).toEqual(['ImportNotFound', 'SiteCompileFailed']);
    expect(errors.find((error) => error.code === 'ImportNotFound')!.message).toBe(
      '"./nope.js" is imported here, but no such file exists.',
    );
  });

  it('reads the package out of a bare import', () => {
    expect(packageOf('react/jsx-runtime')).toBe('react');
    expect(packageOf('@a/b/c')).toBe('@a/b');
    expect(packageOf('./x')).toBeUndefined();
    expect(packageOf('/abs')).toBeUndefined();
    expect(packageOf('node:fs')).toBeUndefined();
  });
});
