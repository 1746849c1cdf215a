// The generator's code stays readable in one screen per function: none in src/ is longer than
// MAX_LINES lines (its signature and closing brace included). Split one that grows past it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/project.ts';

const MAX_LINES = 80;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Every function with a body in the text, with its length in lines and where it starts. */
function functionLengths(fileName: string, text: string): Array<{ where: string; lines: number }> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: Array<{ where: string; lines: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named =
        'name' in node && node.name
          ? (node.name as ts.Node)
          : ts.isVariableDeclaration(node.parent)
            ? node.parent.name
            : undefined;
      const name = named?.getText(source) ?? '(anonymous)';
      found.push({ where: `${fileName}:${start + 1} ${name}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the shape of the source', () => {
  it(`counts a function's lines from its first line to its closing brace`, () => {
    const body = Array.from({ length: 5 }, (_, index) => `  const a${index} = ${index};`).join('\n');
    const found = functionLengths(
      'x.ts',
      `export function outer() {\n${body}\n  const inner = () => {\n    return 1;\n  };\n}\n`,
    );
    expect(found).toEqual([
      { where: 'x.ts:1 outer', lines: 10 },
      { where: 'x.ts:7 inner', lines: 3 },
    ]);
  });

  it(`no function in src/ is longer than ${MAX_LINES} lines`, () => {
    const files = sourceFiles(path.join(repoRoot, 'src'));
    expect(files.length).toBeGreaterThan(20);
    const tooLong = files
      .flatMap((file) => functionLengths(path.relative(repoRoot, file), readFileSync(file, 'utf8')))
      .filter((found) => found.lines > MAX_LINES)
      .map((found) => `${found.where}: ${found.lines} lines`);
    expect(tooLong).toEqual([]);
  });
});
