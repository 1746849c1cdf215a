// npm run docs:reference: the parts of docs/reference/ made from the code, so they cannot drift:
// every error of the catalogue (src/errors/errors-data.ts) and every option of every command (src/cli/, as createProgram in src/cli/cli.ts assembles them).
// tests/docs.test.ts fails when the files in docs/ differ from what this makes.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { createProgram } from '../src/cli/cli.ts';
import { casesOf, type CatalogueEntry } from '../src/errors/error-wording.ts';
import { errorCatalogue, usageErrorCodes, type ErrorCode } from '../src/errors/errors-data.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ERRORS_PAGE = path.join(repoRoot, 'docs', 'reference', 'errors.md');
export const CLI_PAGE = path.join(repoRoot, 'docs', 'reference', 'cli.md');
const CLI_START = '<!-- The options below are made from src/cli/cli.ts by npm run docs:reference. -->';
const CLI_END = '<!-- End of the generated options. -->';

type Wording = (...details: unknown[]) => string;

/** A wording's parameter names, from its source: `(page, link, otherPages = 0) =>` → page, link, otherPages. */
function parameterNames(wording: Wording): string[] {
  const source = wording.toString();
  const list = /^(?:async\s*)?(?:function[^(]*)?\(([^)]*)\)/.exec(source)?.[1] ?? /^(\w+)\s*=>/.exec(source)?.[1] ?? '';
  return list
    .split(',')
    .map((part) =>
      part
        .replace(/=.*$/s, '')
        .replace(/^\s*\.\.\./, '')
        .trim()
        .replace(/^_/, ''),
    )
    .filter(Boolean);
}

/** The wording with each detail shown by its name (`‹page›`); undefined where it computes with them. */
function template(wording: Wording, prefix: unknown[] = []): string | undefined {
  const names = parameterNames(wording);
  // Each detail as text; else, for a wording that joins a list (`locales.join(', ')`), each plural name as a list.
  const text = (name: string) => `‹${name}›`;
  for (const shown of [text, (name: string) => (name.endsWith('s') ? [text(name)] : text(name))]) {
    try {
      const written = wording(...prefix, ...names.map(shown));
      if (!/NaN|undefined|\[object /.test(written)) return written;
    } catch {
      // The next way, or none.
    }
  }
  return undefined;
}

/** Each way an entry's message (or hint) is worded: one, or one per case. */
function wordings(wording: string | Wording): string[] {
  if (typeof wording === 'string') return [wording];
  const cases = casesOf(wording);
  if (cases) return Object.values(cases).map((each) => template(each as Wording) ?? 'Worded from the details.');
  return [template(wording) ?? 'Worded from the details.'];
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n\s*/g, ' ');
/** A message as Markdown text: one line, no link made of a quoted one (`![…](./‹name›.png)`), no tag of `<name>`. */
const asText = (text: string) =>
  text
    .replace(/\n\s*/g, ' ')
    .replace(/\]\(/g, ']\\(')
    .split(/(`[^`]*`)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/</g, '&lt;')))
    .join('');
const quoteLines = (lines: string[]) =>
  lines.length === 1 ? asText(lines[0]!) : lines.map((line) => `- ${asText(line)}`).join('\n');

/** docs/reference/errors.md: every entry of the catalogue with its name, title, message and hint. */
export function errorReference(): string {
  const entries = Object.entries(errorCatalogue) as [ErrorCode, CatalogueEntry][];
  const sections = entries.map(([code, entry]) => {
    const exit = usageErrorCodes.has(code) ? 2 : 1;
    return [
      `## ${code}`,
      '',
      `**${entry.title}** (exit ${exit})`,
      '',
      `What happened: ${quoteLines(wordings(entry.message as Wording)).replace(/^- /, '\n- ')}`,
      '',
      `What to do${typeof entry.hint === 'string' ? '' : ' (worded from the details; for example)'}: ${quoteLines(wordings(entry.hint as string | Wording)).replace(/^- /, '\n- ')}`,
    ].join('\n');
  });
  return [
    '# Errors',
    '',
    'Every failure `ssg` reports on purpose, as `[Name] Title`, then where (file and line) and what',
    'happened, then `hint:` and what to do. `‹name›` stands for a detail of the occurrence (a file, a',
    'link, a number). The exit code is 1, or 2 for a usage error. Anything else, shown as',
    '"Unexpected internal error" with a stack trace, is a bug of the generator.',
    '',
    'This page is made from the catalogue in `src/errors/errors-data.ts` by `npm run docs:reference`;',
    '`tests/docs.test.ts` fails when it differs.',
    '',
    '| Name | Title |',
    '| --- | --- |',
    ...entries.map(([code, entry]) => `| [${code}](#${code.toLowerCase()}) | ${escapeCell(entry.title)} |`),
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
}

/** One command's options, as a table. */
function optionsTable(command: Command, name: string): string[] {
  const options = command.options.filter((option) => !(option as { hidden?: boolean }).hidden);
  if (options.length === 0) return [];
  return [
    `### \`ssg ${name}\``,
    '',
    command.description() ? `${command.description().replace(/^./, (first) => first.toUpperCase())}.` : '',
    '',
    '| Option | What it does |',
    '| --- | --- |',
    ...options.map((option) => {
      const fallback =
        option.defaultValue === undefined || option.defaultValue === false
          ? ''
          : ` (default: ${String(option.defaultValue)})`;
      return `| \`${option.flags}\` | ${escapeCell(option.description)}${fallback} |`;
    }),
    '',
  ];
}

/** The generated part of docs/reference/cli.md: the global options and each command's. */
export function cliOptionsReference(): string {
  const program = createProgram();
  const commands = program.commands.flatMap((command) => [
    [command, command.name()] as const,
    ...command.commands.map((sub) => [sub, `${command.name()} ${sub.name()}`] as const),
  ]);
  return [
    CLI_START,
    '',
    '### Every command',
    '',
    '| Option | What it does |',
    '| --- | --- |',
    ...program.options.map((option) => `| \`${option.flags}\` | ${escapeCell(option.description)} |`),
    '',
    ...commands.flatMap(([command, name]) => optionsTable(command, name)),
    CLI_END,
  ].join('\n');
}

/** docs/reference/cli.md with its generated part made anew. */
export function withCliOptions(page: string): string {
  const start = page.indexOf(CLI_START);
  const end = page.indexOf(CLI_END);
  if (start === -1 || end === -1)
    throw new Error(`${path.relative(repoRoot, CLI_PAGE)} has lost its markers around the generated options.`);
  return `${page.slice(0, start)}${cliOptionsReference()}${page.slice(end + CLI_END.length)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await writeFile(ERRORS_PAGE, errorReference());
  await writeFile(CLI_PAGE, withCliOptions(await readFile(CLI_PAGE, 'utf8')));
  process.stdout.write(
    `Wrote ${path.relative(repoRoot, ERRORS_PAGE)} and the options in ${path.relative(repoRoot, CLI_PAGE)}.\n`,
  );
}
