// The error catalogue (src/errors/errors-data.ts) is the only place messages are worded: every SsgError is
// made by catalogueError(name, details, location) from an entry with a title, a hint and a
// message function, and every entry is used. The source of src/ and site/ is read with the
// TypeScript compiler API, so a `new SsgError(` in a comment or a string does not count.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { catalogueError, formatError } from '../src/errors/errors.ts';
import { errorCatalogue } from '../src/errors/errors-data.ts';
import { repoRoot } from './helpers/project.ts';

/** The catalogue's machinery, the one module that constructs an SsgError, and its data. */
const ERRORS_FILE = 'src/errors/errors.ts';
const DATA_FILE = 'src/errors/errors-data.ts';
/** Functions whose first argument is the name of a catalogue entry. */
const TAKES_A_NAME = new Set(['catalogueError', 'siteCodeError']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** The last part of a callee: `catalogueError` of `catalogueError(…)` and of `errors.catalogueError(…)`. */
function calleeName(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return undefined;
}

interface Scan {
  /** `file:line: what` for each error made outside the catalogue or naming no entry of it. */
  violations: string[];
  /** Every string literal of the file (where the names of entries are used). */
  literals: Set<string>;
}

/** One file's errors made without the catalogue, and the string literals it uses. */
function scanSource(fileName: string, text: string, names: ReadonlySet<string>): Scan {
  const source = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const violations: string[] = [];
  const literals = new Set<string>();
  const at = (node: ts.Node) => `${fileName}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node)) literals.add(node.text);
    if (ts.isNewExpression(node) && calleeName(node.expression) === 'SsgError' && fileName !== ERRORS_FILE) {
      violations.push(
        `${at(node)}: new SsgError(…) words its message outside the catalogue; use catalogueError(name, details, location)`,
      );
    }
    if (ts.isCallExpression(node) && TAKES_A_NAME.has(calleeName(node.expression) ?? '')) {
      const first = node.arguments[0];
      if (first && ts.isStringLiteralLike(first) && !names.has(first.text)) {
        violations.push(
          `${at(node)}: ${calleeName(node.expression)}('${first.text}', …) names no entry of the catalogue`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { violations, literals };
}

/** The names of the catalogue's entries as written in its source, duplicates included. */
function namesInSource(text: string): string[] {
  const source = ts.createSourceFile(DATA_FILE, text, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === 'errorCatalogue') {
      let value = node.initializer;
      while (value && (ts.isSatisfiesExpression(value) || ts.isAsExpression(value))) value = value.expression;
      if (value && ts.isObjectLiteralExpression(value)) {
        for (const property of value.properties) if (property.name) names.push(property.name.getText(source));
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

const names = new Set(Object.keys(errorCatalogue));

/** Every source file of src/ and site/ scanned: the violations, and the entries named outside the catalogue. */
function scanProject(): { violations: string[]; used: Set<string> } {
  const violations: string[] = [];
  const used = new Set<string>();
  for (const file of [...sourceFiles(path.join(repoRoot, 'src')), ...sourceFiles(path.join(repoRoot, 'site'))]) {
    const relative = path.relative(repoRoot, file).split(path.sep).join('/');
    const scan = scanSource(relative, readFileSync(file, 'utf8'), names);
    violations.push(...scan.violations);
    // The catalogue itself (and its list of usage errors) does not count as a use.
    if (relative !== DATA_FILE) for (const literal of scan.literals) if (names.has(literal)) used.add(literal);
  }
  return { violations, used };
}
const duplicates = (items: readonly string[]) => items.filter((item, index) => items.indexOf(item) !== index);

describe('the error catalogue', () => {
  it('finds errors made outside the catalogue, and names that are no entry, in a source it is given', () => {
    const text = [
      "import { catalogueError, SsgError } from '../errors.ts';",
      "const a = catalogueError('LinkBroken', ['/a', '/b'], { file: 'x.md' });",
      "const b = new SsgError('LinkBroken', 'The page /a links to /b.');",
      "// new SsgError('LinkBroken', 'only a comment')",
      "const c = catalogueError('NoSuchEntry', []);",
      "const d = siteCodeError('AlsoNoEntry', 'Loading x', error);",
      "const e = new errors.SsgError('LinkBroken', 'through a namespace');",
      'const f = catalogueError(code, details);',
    ].join('\n');
    const scan = scanSource('src/render/example.ts', text, names);
    expect(scan.violations).toEqual([
      expect.stringMatching(/^src\/render\/example\.ts:3: new SsgError/),
      expect.stringMatching(/^src\/render\/example\.ts:5: catalogueError\('NoSuchEntry'/),
      expect.stringMatching(/^src\/render\/example\.ts:6: siteCodeError\('AlsoNoEntry'/),
      expect.stringMatching(/^src\/render\/example\.ts:7: new SsgError/),
    ]);
    expect(scan.literals.has('LinkBroken')).toBe(true);
    // The catalogue's own module may construct it: catalogueError does.
    expect(scanSource(ERRORS_FILE, text, names).violations).toHaveLength(2);
    expect(namesInSource('export const errorCatalogue = { A: {}, B: {}, A: {} } as const satisfies X;')).toEqual([
      'A',
      'B',
      'A',
    ]);
  });

  it('every entry has a title, a hint and a message function; names and titles are unique', () => {
    const problems = Object.entries(errorCatalogue).flatMap(([name, entry]) => {
      const found: string[] = [];
      if (typeof entry.title !== 'string' || entry.title.trim() === '') found.push(`${name}: no title`);
      if (!(typeof entry.hint === 'function' || (typeof entry.hint === 'string' && entry.hint.trim() !== '')))
        found.push(`${name}: no hint`);
      if (typeof entry.message !== 'function') found.push(`${name}: no message function`);
      return found;
    });
    expect(problems).toEqual([]);
    const written = namesInSource(readFileSync(path.join(repoRoot, DATA_FILE), 'utf8'));
    expect(written.length).toBe(names.size);
    expect(duplicates(written)).toEqual([]);
    expect(duplicates(Object.values(errorCatalogue).map((entry) => entry.title))).toEqual([]);
  });

  it('src/ and site/ make every SsgError through the catalogue', () => {
    expect(scanProject().violations).toEqual([]);
  });

  it('src/ and site/ use every entry of the catalogue', () => {
    const { used } = scanProject();
    expect([...names].filter((name) => !used.has(name))).toEqual([]);
  });

  it('an error carries the words of its entry, and the terminal shows name, title, where, message and hint', () => {
    const error = catalogueError('LinkBroken', ['/about', '/team'], { file: 'content/about.md', line: 3 });
    expect(error).toMatchObject({
      code: 'LinkBroken',
      title: 'A link leads nowhere',
      message: 'The page /about links to /team, which no route or public file provides.',
      hint: 'Fix the link, or add the page or file it points to.',
      where: 'content/about.md:3',
    });
    expect(formatError(error).split('\n')).toEqual([
      '[LinkBroken] A link leads nowhere',
      '  content/about.md:3: The page /about links to /team, which no route or public file provides.',
      '  hint: Fix the link, or add the page or file it points to.',
    ]);
    // A hint worded from the details, and a message without a location.
    const setting = catalogueError('ServeConfigInvalid', [
      'setting',
      'PORT',
      'PORT is "x"; set it to a whole number of at least 1',
    ]);
    expect(formatError(setting).split('\n')).toEqual([
      '[ServeConfigInvalid] A server setting is missing or wrong',
      '  PORT is "x"; set it to a whole number of at least 1.',
      '  hint: Set PORT in the environment; docs/contact-endpoint.md lists every variable.',
    ]);
  });
});
