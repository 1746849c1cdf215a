// `ssg init`: a new site in a folder, and what to run next.
import type { Command } from 'commander';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { generatorRoot } from '../project.ts';
import { cleanUpOnSignal, reportFailure } from './exit.ts';
import type { GlobalOptions } from './options.ts';

export function addInitCommand(program: Command): void {
  program
    .command('init')
    .description('create a new site (a page, an island, an article) in a folder that does not exist yet or is empty')
    .argument('<folder>', 'the folder to create the site in')
    .action(async (folder: string, _options: unknown, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      // A signal while init writes undoes what it wrote (its clean-up is registered).
      const interrupts = cleanUpOnSignal('Init');
      try {
        const { initSite } = await import('./init.ts');
        const result = await initSite(folder, path.resolve(global.root), interrupts);
        const shown = path.relative(process.cwd(), result.target) || '.';
        const ssg = ssgCommandFor(result.target);
        const next = shown === '.' ? [`${ssg} dev`, `${ssg} build`] : [`cd ${shellWord(shown)}`, `${ssg} dev`];
        process.stdout.write(
          `Created a site in ${shown} (${result.files.length} files). Next:\n${next.map((line) => `  ${line}\n`).join('')}`,
        );
      } catch (error) {
        reportFailure(error, Boolean(global.verbose), 'Init failed');
      }
    });
}

/** A folder name as a POSIX shell reads it back (quoted unless plain; never read as an option). */
function shellWord(word: string): string {
  const safe = word.startsWith('-') ? `./${word}` : word;
  return /^[\w./-]+$/.test(safe) ? safe : `'${safe.replaceAll("'", "'\\''")}'`;
}

/**
 * How to run this ssg from `site`: `npx ssg` when npm finds this very package from there (a
 * node_modules/ssg above it that is this one); otherwise this CLI by its path, since npx would
 * look the name up elsewhere.
 */
function ssgCommandFor(site: string): string {
  const own = realpathOrSelf(generatorRoot);
  for (let dir = site; ; dir = path.dirname(dir)) {
    if (realpathOrSelf(path.join(dir, 'node_modules', 'ssg')) === own) return 'npx ssg';
    if (path.dirname(dir) === dir) return `node ${shellWord(path.join(generatorRoot, 'bin', 'ssg.js'))}`;
  }
}

function realpathOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
