// `ssg init`: a new site in a folder, the scripts that run it in its project's package.json, and
// what to run next.
import type { Command } from 'commander';
import path from 'node:path';
import { generatorRoot } from '../project.ts';
import { cleanUpOnSignal, reportFailure } from './exit.ts';
import type { ProjectChanges } from './init-project.ts';
import type { GlobalOptions } from './options.ts';
import { shellWord } from './package-scripts.ts';

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
        const { SITE_ALLOW_SCRIPTS, addSiteToProject, installingProject, npmPrefixOf } =
          await import('./init-project.ts');
        const result = await initSite(folder, path.resolve(global.root), interrupts);
        const shown = (file: string) => path.relative(process.cwd(), file) || '.';
        const site = shown(result.target);
        interrupts.setOutcome(`the site in ${site} is made`);
        const lines = [`Created a site in ${site} (${result.files.length} files).`];
        // `npx ssg` when npm finds this very package from the site; otherwise this CLI by its
        // path, since npx would look the name up elsewhere.
        const project = installingProject(result.target);
        const ssg = project ? 'npx ssg' : `node ${shellWord(path.join(generatorRoot, 'bin', 'ssg.js'))}`;
        let scripts: string[] = [];
        if (project) {
          const changes = addSiteToProject(project, result.target, interrupts);
          lines.push(...projectReport(changes, Object.keys(SITE_ALLOW_SCRIPTS), shown));
          // npm runs the project's scripts from the site when no package.json lies between them.
          if (npmPrefixOf(result.target) === project) scripts = changes.running;
        }
        const run = (command: string) => (scripts.includes(command) ? `npm run ${command}` : `${ssg} ${command}`);
        const next = site === '.' ? [run('dev'), run('build')] : [`cd ${shellWord(site)}`, run('dev')];
        const after = ['Next:', ...next.map((line) => `  ${line}`)];
        // The typecheck runs tsc, which ssg does not install (docs/package.md, "One React").
        if (project)
          after.push(
            `To type-check it: npm install -D typescript @types/react, then ${scripts.includes('typecheck') ? 'npm run typecheck' : 'npx tsc in its folder'}.`,
          );
        process.stdout.write(`${[...lines, ...after].join('\n')}\n`);
      } catch (error) {
        reportFailure(error, Boolean(global.verbose), 'Init failed');
      }
    });
}

/** What init wrote into the project and what it left as it was there. */
function projectReport(changes: ProjectChanges, allow: string[], shown: (file: string) => string): string[] {
  const packageJson = shown(changes.packageJson);
  const gitignore = shown(changes.gitignore);
  const names = (list: string[]) => list.map((name) => `"${name}"`).join(', ');
  const lines: string[] = [];
  const allowScripts = `"allowScripts" for ${names(allow)}`;
  if (changes.created) lines.push(`Wrote ${packageJson} with the scripts ${names(changes.added)} and ${allowScripts}.`);
  else {
    if (changes.added.length > 0) lines.push(`Added the scripts ${names(changes.added)} to ${packageJson}.`);
    if (changes.allowScriptsAdded) lines.push(`Added ${allowScripts} to ${packageJson}.`);
  }
  if (!changes.gitignoreLeft) lines.push(`Wrote ${gitignore}.`);
  if (changes.packageJsonLeft) lines.push(`Left as it was: ${packageJson} (${changes.packageJsonLeft}).`);
  if (changes.kept.length > 0)
    lines.push(
      `Left as ${changes.kept.length === 1 ? 'it was: the script' : 'they were: the scripts'} ${names(changes.kept)} in ${packageJson} (there already, with another command).`,
    );
  if (changes.notAllowed.length > 0)
    lines.push(
      `Left as it was: "allowScripts" in ${packageJson} (there already, without ${changes.notAllowed.map((name) => `"${name}": true`).join(', ')}).`,
    );
  if (changes.gitignoreLeft) lines.push(`Left as it was: ${gitignore} (${changes.gitignoreLeft}).`);
  return lines;
}
