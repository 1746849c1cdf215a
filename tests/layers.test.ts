// The generator's layers (.dependency-cruiser.cjs): no folder of src/ imports a layer above it,
// no cycle between folders or modules, nothing in src/ imports bin/ or site/.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/project.ts';

const depcruise = path.join(repoRoot, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const config = path.join(repoRoot, '.dependency-cruiser.cjs');

/** Runs dependency-cruiser with the project's rules in `cwd`; its exit code is the number of errors. */
async function cruise(cwd: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [depcruise, 'src', 'bin', '--config', config, '--output-type', 'err'],
      { cwd },
    );
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      output: `${failed.stdout ?? ''}${failed.stderr ?? ''}`,
    };
  }
}

describe('the layers of src/', () => {
  let scratch: string;

  beforeAll(async () => {
    // A tree that breaks each rule once, to see the rules catch what they are for.
    scratch = await mkdtemp(path.join(tmpdir(), 'ssg-layers-'));
    const files: Record<string, string> = {
      'tsconfig.json': '{ "compilerOptions": { "allowImportingTsExtensions": true, "noEmit": true } }',
      'src/output/write.ts': "import { main } from '../cli/cli.ts';\nexport const write = main;\n",
      'src/cli/cli.ts': 'export const main = 1;\n',
      'src/content/a.ts': "import { b } from '../cache/b.ts';\nexport const a = b;\n",
      'src/cache/b.ts': "import { c } from '../content/c.ts';\nexport const b = c;\n",
      'src/content/c.ts': 'export const c = 1;\n',
      'src/render/page.ts': "import { logo } from '../../site/logo.ts';\nexport const page = logo;\n",
      'site/logo.ts': 'export const logo = 1;\n',
      'bin/ssg.js': "import { b } from '../src/cache/b.ts';\nexport default b;\n",
    };
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(scratch, file)), { recursive: true });
      await writeFile(path.join(scratch, file), text);
    }
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it('hold for the generator', async () => {
    const { code, output } = await cruise(repoRoot);
    expect(output).toContain('no dependency violations found');
    expect(code, output).toBe(0);
  });

  it('catch an import of a higher layer, a cycle between folders, site code in src/ and bin/ past the CLI', async () => {
    const { code, output } = await cruise(scratch);
    expect(code, output).toBeGreaterThan(0);
    expect(output).toMatch(/no-upward-from-stages: src\/output\/write\.ts → src\/cli\/cli\.ts/);
    expect(output).toMatch(/no-folder-cycles: src\/(content|cache)/);
    expect(output).toMatch(/no-bin-or-site-from-src: src\/render\/page\.ts → site\/logo\.ts/);
    expect(output).toMatch(/bin-calls-only-the-cli: bin\/ssg\.js → src\/cache\/b\.ts/);
  });
});
