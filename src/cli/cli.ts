import { Command, CommanderError } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addBuildCommand } from './build-command.ts';
import { reportFailure, USAGE_EXIT } from './exit.ts';
import { addInboxCommands } from './inbox-commands.ts';
import { addInitCommand } from './init-command.ts';
import { addDevCommand, addPreviewCommand, addServeCommand } from './server-commands.ts';

/**
 * The version in the generator's package.json: the nearest one up from this file that declares the
 * `ssg` command (this file runs from src/ through tsx, or compiled in lib/).
 */
export function generatorVersion(from = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (let depth = 0; depth < 32; depth++) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown; bin?: unknown };
      if (
        typeof manifest.version === 'string' &&
        typeof manifest.bin === 'object' &&
        manifest.bin !== null &&
        'ssg' in manifest.bin
      )
        return manifest.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return 'unknown';
}

export function createProgram(): Command {
  const program = new Command('ssg')
    .description('Prerender a React site to static HTML.')
    .version(generatorVersion(), '-V, --version', 'print the version of ssg')
    .option('-C, --root <dir>', 'the site folder', '.')
    .option('--verbose', 'show stack traces and causes of errors')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  addInitCommand(program);
  addBuildCommand(program);
  addDevCommand(program);
  addPreviewCommand(program);
  addServeCommand(program);
  addInboxCommands(program);
  return program;
}

export async function main(argv: readonly string[]): Promise<void> {
  process.env.NODE_ENV ??= 'production';
  const program = createProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : USAGE_EXIT;
      return;
    }
    reportFailure(error, argv.includes('--verbose'), 'Failed');
  }
}
