// `ssg build`: the site into an output folder, its summary, and an exit nothing holds up.
import { Option, type Command } from 'commander';
import { catalogueError } from '../errors/errors.ts';
import { cleanUpOnSignal, exitSoonAfter, reportFailure } from './exit.ts';
import { limitsOf, withLimitOptions, type GlobalOptions, type LimitOptions } from './options.ts';
import { progressLine } from './progress.ts';
import { formatBuilt, formatSummary, formatTimings, summaryRows } from './summary.ts';
import { paint, useColor } from './terminal.ts';

interface BuildOptions {
  out: string;
  baseUrl?: string;
  drafts?: boolean;
  future?: boolean;
  emptyOutDir?: boolean;
  watch?: boolean;
}

export function addBuildCommand(program: Command): void {
  const command = program
    .command('build')
    .description('build the site into a folder ready to upload to any web server')
    .option('--out <dir>', 'output folder', 'dist')
    .option(
      '--base-url <url>',
      'absolute origin for canonical links, feeds and the sitemap (default: baseUrl in content/site.yaml)',
    )
    .option('--drafts', 'include articles marked "draft: true" (kept out of the sitemap and feed, marked noindex)')
    .option('--future', 'include articles dated in the future (held back until their date otherwise)')
    .option(
      '--empty-out-dir',
      'replace the contents of an output folder the build did not write (.git, CNAME and .nojekyll are kept)',
    )
    // Asked for often enough to be answered: watching is dev mode's.
    .addOption(new Option('--watch').hideHelp());
  withLimitOptions(command).action(runBuildCommand);
}

async function runBuildCommand(options: BuildOptions & LimitOptions, command: Command): Promise<void> {
  const global = command.optsWithGlobals<GlobalOptions>();
  if (options.watch) {
    reportFailure(catalogueError('BuildWatchUnknown', []), Boolean(global.verbose), 'Build failed');
    return;
  }
  const colors = paint(useColor());
  const interrupts = cleanUpOnSignal();
  try {
    // Loaded on use: `--help` and `preview` should not wait for the Markdown and bundling stack.
    const { build } = await import('../pipeline/build.ts');
    const progress = progressLine(process.stdout);
    const result = await build({
      root: global.root,
      outDir: options.out,
      baseUrl: options.baseUrl,
      drafts: options.drafts,
      future: options.future,
      emptyOutDir: options.emptyOutDir,
      limits: limitsOf(options),
      interrupts,
      onProgress: (done, total) => progress.update(done, total),
      warn: (message) => {
        progress.clear();
        process.stderr.write(`${colors.yellow('warning')} ${message}\n`);
      },
    }).finally(() => progress.clear());
    printBuildResult(result, options.out, colors);
  } catch (error) {
    reportFailure(error, Boolean(global.verbose), 'Build failed');
  }
  exitSoonAfter(interrupts);
}

type BuildResult = Awaited<ReturnType<typeof import('../pipeline/build.ts').build>>;

function printBuildResult(result: BuildResult, outDir: string, colors: ReturnType<typeof paint>): void {
  process.stdout.write(`${formatSummary(summaryRows(result.pages), colors)}\n`);
  process.stdout.write(`${formatTimings(result.timings, colors)}\n`);
  const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const { pages, articles, durationMs, markdown, unchanged } = result;
  process.stdout.write(
    `${formatBuilt({ pages: pages.length, articles, outDir, durationMs, markdown, unchanged, peakMb }, colors)}\n`,
  );
}
