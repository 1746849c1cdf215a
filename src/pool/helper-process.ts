// One Markdown helper process: the script it runs (shipped in lib/, or compiled from the sources)
// and how it is started. The pool (markdown-pool.ts) hands it work.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generatorModulePaths, generatorRoot } from '../project.ts';
import { noInterrupts, type Interrupts } from '../base/interrupt.ts';
import { DEFAULT_LIMITS, type ArticleLimits } from '../content/limits.ts';

/**
 * Packages the helper imports where the generator finds them, by absolute path (the helper file
 * lives in the site's cache folder, not beside the generator): sharp and esbuild load native
 * binaries of their own, and an MDX article's module must render with the very React it imports.
 */
const EXTERNAL = /^(?:sharp|esbuild|react|react-dom|@mdx-js\/mdx)(?:\/.*)?$/;
const nativeExternal = {
  name: 'native-external',
  setup(build: {
    onResolve(
      options: { filter: RegExp },
      callback: (args: { path: string }) => { path: string; external: boolean },
    ): void;
  }) {
    build.onResolve({ filter: EXTERNAL }, (args) => ({
      path: pathToFileURL(createRequire(path.join(generatorRoot, 'package.json')).resolve(args.path)).href,
      external: true,
    }));
  },
};

/**
 * The helper script the package ships, compiled beside the CLI into lib/ (scripts/build-package.js):
 * used when the generator itself runs compiled. Run from its TypeScript sources (a checkout whose
 * sources changed, the tests), the generator compiles the helper from those sources instead.
 */
export function shippedHelper(): string | undefined {
  const file = path.join(generatorRoot, 'lib', 'markdown-helper.js');
  return !fileURLToPath(import.meta.url).endsWith('.ts') && existsSync(file) ? file : undefined;
}

/** Compiles the helper script to plain JavaScript at `helperFile`. */
export async function compileHelper(helperFile: string): Promise<void> {
  const esbuild = await import('esbuild');
  // Written here, not by esbuild's own process: a build stopped meanwhile removes the file it
  // knows of, and esbuild could write it after that.
  const result = await esbuild.build({
    write: false,
    entryPoints: [path.join(generatorRoot, 'src', 'pool', 'markdown-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: helperFile,
    logLevel: 'silent',
    nodePaths: generatorModulePaths,
    absWorkingDir: generatorRoot,
    // Packages written as CommonJS (some of the HTML parser's) require Node's modules.
    banner: {
      js: "import { createRequire as __ssgRequire } from 'node:module'; const require = __ssgRequire(import.meta.url);",
    },
    plugins: [nativeExternal],
    // Compiled into the site's cache folder, it could not find the generator from where it is.
    define: { SSG_GENERATOR_ROOT: JSON.stringify(generatorRoot) },
  });
  writeFileSync(helperFile, result.outputFiles[0]!.contents);
}

/** What V8 prints as a process runs out of heap: the helper's report of it, not the site's to read. */
const OUT_OF_MEMORY = /<--- Last few GCs --->|FATAL ERROR: .*heap|JavaScript heap out of memory/;

/** A helper process, and whether it ran out of memory (V8 said so on its standard error, which is passed on otherwise). */
export interface Helper {
  process: ChildProcess;
  outOfMemory: boolean;
}

/**
 * One helper. It names the cache folder it works for on its command line (`ps` tells whose it is)
 * and may use `memoryMb` of heap: an article that needs more ends it, and is named for it.
 */
export function forkHelper(helperFile: string, cacheDir: string, memoryMb: number): Helper {
  const child = fork(helperFile, [`--for=${cacheDir}`], {
    // Parsing Markdown allocates a great deal: a larger young generation, fewer collections.
    execArgv: ['--max-semi-space-size=64', `--max-old-space-size=${memoryMb}`],
    // One helper per core already: libvips (images, drawn files) on one thread each, not one per
    // core in every helper competing for the same cores. The user's own setting wins.
    env: { VIPS_CONCURRENCY: '1', ...process.env },
    cwd: generatorRoot,
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  const helper: Helper = { process: child, outOfMemory: false };
  child.stderr!.on('data', (chunk: Buffer) => {
    if (!helper.outOfMemory && OUT_OF_MEMORY.test(chunk.toString('latin1'))) helper.outOfMemory = true;
    if (!helper.outOfMemory) process.stderr.write(chunk);
  });
  // A send to a helper that ended (EPIPE) is told to its callback; its exit ends the batch.
  child.on('error', () => {});
  return helper;
}

/** A helper started before the pool that takes it exists (see startSpareHelper). */
export interface SpareHelper {
  /** The helper, if it is still there for this heap; no longer the spare's to end once taken. */
  take(memoryMb: number): Helper | undefined;
  /** Ends the helper if no pool took it. */
  end(): void;
}

/**
 * Starts one helper now, ahead of the pool that will want it: a build that is going to convert
 * starts it as it begins, so the helper loads while the build reads its inputs, and converting the
 * one article a push changed waits for no process start. Only the shipped helper (lib/).
 */
export function startSpareHelper(options: {
  cacheDir: string;
  interrupts?: Interrupts;
  limits?: Pick<ArticleLimits, 'helperMemoryMb'>;
}): SpareHelper {
  const file = shippedHelper();
  const memoryMb = options.limits?.helperMemoryMb ?? DEFAULT_LIMITS.helperMemoryMb;
  let helper = file ? forkHelper(file, options.cacheDir, memoryMb) : undefined;
  const end = () => {
    helper?.process.kill('SIGKILL');
    helper = undefined;
    unregister();
  };
  const unregister = helper ? (options.interrupts ?? noInterrupts).on(end) : () => {};
  return {
    take(wantedMb) {
      const taken =
        wantedMb === memoryMb && helper?.process.exitCode === null && helper.process.signalCode === null
          ? helper
          : undefined;
      if (taken) {
        helper = undefined;
        unregister();
      }
      return taken;
    },
    end,
  };
}
