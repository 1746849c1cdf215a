// The project around a new site: the folder whose node_modules holds this very ssg, where `npm
// install` ran. `ssg init` adds the scripts that run the site to its package.json (npm runs them
// from any folder below it, the site's own included) with the `allowScripts` the site's packages
// need, and writes its .gitignore. It replaces nothing: a file, a script or an allowScripts that is
// there already stays as it is, and init's report names it.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { noInterrupts, type Interrupts } from '../base/interrupt.ts';
import { generatorRoot } from '../project.ts';
import { addAllowScripts, allowsScripts, mergeScripts, shellWord } from './package-scripts.ts';

/** What the project's .gitignore needs that the site's own (the starter's) does not hold. */
export const PROJECT_GITIGNORE = 'node_modules/\n';

/**
 * The packages a site installs with ssg whose install scripts npm is to run (npm 11 lists those an
 * `allowScripts` does not name; npm 12 runs no others): esbuild's checks its binary, and sharp's.
 */
export const SITE_ALLOW_SCRIPTS: Readonly<Record<string, boolean>> = { esbuild: true, sharp: true };

/** The scripts, run from the project's folder, for the site at `site` (relative to it, with `/`). */
export function siteScripts(site: string): Record<string, string> {
  const root = shellWord(site);
  return {
    build: `ssg -C ${root} build`,
    dev: `ssg -C ${root} dev`,
    preview: `ssg -C ${root} preview`,
    typecheck: `tsc -p ${root}`,
  };
}

/** The folder at or above `dir` whose node_modules/ssg is this ssg, if there is one. */
export function installingProject(dir: string): string | undefined {
  const own = realpathOrSelf(generatorRoot);
  for (let at = dir; ; at = path.dirname(at)) {
    if (realpathOrSelf(path.join(at, 'node_modules', 'ssg')) === own) return at;
    if (path.dirname(at) === at) return undefined;
  }
}

/** The folder whose package.json `npm run` uses when started in `dir`: the nearest with a package.json or a node_modules. */
export function npmPrefixOf(dir: string): string | undefined {
  for (let at = dir; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, 'package.json')) || existsSync(path.join(at, 'node_modules'))) return at;
    if (path.dirname(at) === at) return undefined;
  }
}

export interface ProjectChanges {
  packageJson: string;
  gitignore: string;
  /** The scripts added to package.json (which init made when there was none: `created`). */
  added: string[];
  created: boolean;
  /** The scripts package.json had already with another command: left as they were. */
  kept: string[];
  /** The scripts that run the site now: added, or there already with the same command. */
  running: string[];
  /** Whether init added `allowScripts` (SITE_ALLOW_SCRIPTS) to package.json. */
  allowScriptsAdded: boolean;
  /** The packages of SITE_ALLOW_SCRIPTS that an `allowScripts` there already does not allow. */
  notAllowed: string[];
  /** Why package.json was left as it was, when it could take no scripts. */
  packageJsonLeft?: string;
  /** Why .gitignore was not written (`there already`, and whether it ignores node_modules/). */
  gitignoreLeft?: string;
}

export function addSiteToProject(project: string, site: string, interrupts: Interrupts = noInterrupts): ProjectChanges {
  const scripts = siteScripts(path.relative(project, site).split(path.sep).join('/'));
  const packageJson = path.join(project, 'package.json');
  const gitignore = path.join(project, '.gitignore');
  const written = writeScripts(packageJson, scripts, interrupts);
  let gitignoreLeft: string | undefined;
  try {
    writeFileSync(gitignore, PROJECT_GITIGNORE, { flag: 'wx' });
  } catch (error) {
    gitignoreLeft =
      (error as NodeJS.ErrnoException).code !== 'EEXIST'
        ? cannot('write', error)
        : ignoresNodeModules(readOrEmpty(gitignore))
          ? 'there already'
          : 'there already, and node_modules/ is not ignored by it';
  }
  const running = written.left ? [] : Object.keys(scripts).filter((name) => !written.kept.includes(name));
  return {
    packageJson,
    gitignore,
    added: written.added,
    created: written.created,
    kept: written.kept,
    running,
    allowScriptsAdded: written.allowScriptsAdded,
    notAllowed: written.notAllowed,
    ...(written.left ? { packageJsonLeft: written.left } : {}),
    ...(gitignoreLeft ? { gitignoreLeft } : {}),
  };
}

/**
 * Whether a .gitignore ignores node_modules/ beside it: its last line naming that folder (as
 * `node_modules`, `/node_modules/`, `node_modules/*`, or after a leading `**`) is not a `!` one.
 */
export function ignoresNodeModules(text: string): boolean {
  let ignored = false;
  for (const line of text.split(/\r?\n/)) {
    const pattern = line.trim();
    const negated = pattern.startsWith('!');
    if (/^(\*\*\/|\/)?node_modules(\/(\*\*?)?)?$/.test(negated ? pattern.slice(1) : pattern)) ignored = !negated;
  }
  return ignored;
}

/** The text of `file`, or nothing when it cannot be read (a folder, say). */
function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

interface WrittenScripts {
  added: string[];
  kept: string[];
  created: boolean;
  allowScriptsAdded: boolean;
  notAllowed: string[];
  left?: string;
}

function writeScripts(file: string, scripts: Record<string, string>, interrupts: Interrupts): WrittenScripts {
  const leftAsItWas = (left: string): WrittenScripts => ({
    added: [],
    kept: [],
    created: false,
    allowScriptsAdded: false,
    notAllowed: [],
    left,
  });
  let before: string | undefined;
  try {
    const bytes = readFileSync(file);
    before = bytes.toString('utf8');
    if (!Buffer.from(before, 'utf8').equals(bytes)) return leftAsItWas('not UTF-8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return leftAsItWas(cannot('read', error));
  }
  const created = before === undefined;
  const merge = mergeScripts(before ?? '{}\n', scripts);
  if (!merge.ok) return leftAsItWas(merge.reason);
  const withScripts = merge.text ?? before ?? '{}\n';
  const allow = addAllowScripts(withScripts, SITE_ALLOW_SCRIPTS);
  if (!allow.ok) return leftAsItWas(allow.reason);
  const notAllowed = allow.present
    ? Object.keys(SITE_ALLOW_SCRIPTS).filter((name) => !allowsScripts(allow.present!, name))
    : [];
  const after = allow.text ?? merge.text;
  if (after === undefined) return { added: [], kept: merge.kept, created: false, allowScriptsAdded: false, notAllowed };
  try {
    if (before === undefined) writeFileSync(file, after, { flag: 'wx' });
    else {
      const refused = replaceFile(file, before, after, interrupts);
      if (refused) return leftAsItWas(refused);
    }
  } catch (error) {
    return leftAsItWas(cannot('write', error));
  }
  return { added: merge.added, kept: merge.kept, created, allowScriptsAdded: allow.text !== undefined, notAllowed };
}

/**
 * Replaces `file` (through a link, with its mode) by `after` in one rename, so that a failure or a
 * signal never leaves half a file; unless it no longer holds `before`: then it says why not.
 */
function replaceFile(file: string, before: string, after: string, interrupts: Interrupts): string | undefined {
  const target = realpathSync(file);
  const temporary = `${target}.ssg-init-${process.pid}-${randomBytes(4).toString('hex')}`;
  const unregister = interrupts.on(() => rmSync(temporary, { force: true }));
  try {
    const mode = statSync(target).mode & 0o7777;
    writeFileSync(temporary, after, { flag: 'wx' });
    chmodSync(temporary, mode);
    if (readFileSync(target, 'utf8') !== before) return 'it changed while init read it';
    renameSync(temporary, target);
    return undefined;
  } finally {
    rmSync(temporary, { force: true });
    unregister();
  }
}

const cannot = (what: string, error: unknown) =>
  `could not ${what} it: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;

function realpathOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
