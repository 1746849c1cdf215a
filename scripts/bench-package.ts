// npm run bench:package
// What installing ssg costs a site that turns on no optional feature: the tarball `npm run
// package` packs, installed into an empty folder offline (tests/helpers/packed-install.ts), its
// size on disk, its packages and npm's warnings; and the peer-dependency conflicts `npm ci` of
// this repository reports (npm's dry run, which resolves the tree and writes nothing).
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, lstat, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { installPacked, packSsg, PEER_CONFLICT } from '../tests/helpers/packed-install.ts';
import { repoRoot } from '../tests/helpers/project.ts';

const run = promisify(execFile);
const GOAL_MB = 300;

/** Bytes on disk of every file below `dir` (links counted once, as themselves). */
async function diskBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await diskBytes(at);
    else total += (await lstat(at)).blocks * 512;
  }
  return total;
}

/** npm's warning lines, and those of them that report a peer-dependency conflict. */
function warnings(output: string): { lines: number; conflicts: number } {
  const lines = output.split('\n').filter((line) => line.startsWith('npm warn'));
  return { lines: lines.length, conflicts: lines.filter((line) => PEER_CONFLICT.test(line)).length };
}

/** The packages of `npm ls --json`'s tree, each name and version once. */
function countPackages(tree: object): number {
  const seen = new Set<string>();
  const walk = (deps: Record<string, { version?: string; dependencies?: object }> | undefined) => {
    for (const [name, node] of Object.entries(deps ?? {})) {
      const key = `${name}@${node.version}`;
      if (seen.has(key)) continue;
      seen.add(key);
      walk(node.dependencies as never);
    }
  };
  walk((tree as { dependencies?: never }).dependencies);
  return seen.size;
}

const scratch = await mkdtemp(path.join(tmpdir(), 'ssg-bench-package-'));
try {
  const { tarball, manifest } = await packSsg(scratch);
  const project = path.join(scratch, 'project');
  const installed = await installPacked(project, tarball, manifest);
  const lock = JSON.parse(
    (await run('npm', ['ls', '--all', '--json', '--package-lock-only'], { cwd: project, maxBuffer: 256 << 20 })).stdout,
  ) as object;
  const packages = countPackages(lock);
  const megabytes = (await diskBytes(path.join(project, 'node_modules'))) / 1e6;
  const install = warnings(installed.stderr);
  const repository = await run('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: repoRoot,
    maxBuffer: 64 << 20,
  });
  const repo = warnings(repository.stderr);
  console.log(
    `ssg installed into an empty project: ${megabytes.toFixed(1)} MB in node_modules, ${packages} packages ` +
      `(goal: at most ${GOAL_MB} MB: ${megabytes <= GOAL_MB ? 'met' : 'missed'}); npm warned ${install.lines} lines, ` +
      `${install.conflicts} of them peer-dependency conflicts`,
  );
  console.log(
    `npm ci of this repository (dry run): ${repo.lines} warning lines, ${repo.conflicts} peer-dependency conflicts`,
  );
} finally {
  await rm(scratch, { recursive: true, force: true });
}
