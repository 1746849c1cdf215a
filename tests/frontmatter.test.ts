import fc from 'fast-check';
import { stringify as stringifyToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { SsgError } from '../src/errors/errors.ts';
import { bodyOf, bodyStartLine, linesOf, splitFrontMatter } from '../src/content/frontmatter.ts';

describe('splitFrontMatter', () => {
  it('parses YAML between a leading and a closing --- line', () => {
    const result = splitFrontMatter('---\ntitle: Hi\ntags: [a, b]\n---\nBody\n', 'a.md');
    expect(result.data).toEqual({ title: 'Hi', tags: ['a', 'b'] });
    expect(result.body).toBe('Body\n');
  });

  it('treats the whole file as the body when there is no leading --- line', () => {
    const source = 'title: not front matter\n---\nstill body';
    expect(splitFrontMatter(source, 'a.md')).toEqual({ data: {}, body: source });
  });

  it('accepts Windows line endings and a byte-order mark', () => {
    const result = splitFrontMatter('\ufeff---\r\ntitle: Hi\r\n---\r\nBody', 'a.md');
    expect(result.data).toEqual({ title: 'Hi' });
    expect(result.body).toBe('Body');
  });

  it('gives empty data for an empty block', () => {
    expect(splitFrontMatter('---\n---\nBody', 'a.md')).toEqual({ data: {}, body: 'Body' });
  });

  it('keeps a later --- line (a Markdown rule) in the body', () => {
    expect(splitFrontMatter('---\na: 1\n---\nOne\n\n---\n\nTwo', 'a.md').body).toBe('One\n\n---\n\nTwo');
  });

  it('keeps an unquoted date a string (YAML 1.2 core schema)', () => {
    expect(splitFrontMatter('---\ndate: 2025-01-01\n---\n', 'a.md').data.date).toBe('2025-01-01');
  });

  it('rejects an unclosed block, naming the file and line 1', () => {
    const error = catchError(() => splitFrontMatter('---\ntitle: Hi\nBody', 'content/news/a.md'));
    expect(error.code).toBe('FrontMatterUnclosed');
    expect(error.where).toBe('content/news/a.md:1');
  });

  it('rejects malformed YAML with the line in the file, not in the block', () => {
    const error = catchError(() => splitFrontMatter('---\ntitle: ok\ntags: [a, b\n---\nBody', 'x.md'));
    expect(error.code).toBe('FrontMatterInvalidYaml');
    expect(error.file).toBe('x.md');
    expect(error.line).toBeGreaterThanOrEqual(3);
  });

  it('places a value left open on the line where it opens, not where the parser noticed it', () => {
    const bracket = catchError(() => splitFrontMatter('---\ntitle: ok\ntags: [a, b\nexcerpt: x\n---\nBody', 'x.md'));
    expect([bracket.code, bracket.line, bracket.column]).toEqual(['FrontMatterInvalidYaml', 3, 7]);
    const quote = catchError(() => splitFrontMatter('---\ntitle: "open\ndate: x\n---\nBody', 'x.md'));
    expect([quote.code, quote.line]).toEqual(['FrontMatterInvalidYaml', 2]);
    // An error that is where the parser says stays there.
    const duplicate = catchError(() => splitFrontMatter('---\ntitle: a\ntitle: b\n---\nBody', 'x.md'));
    expect(duplicate.line).toBe(3);
  });

  it('rejects front matter that is not key: value pairs', () => {
    expect(catchError(() => splitFrontMatter('---\n- a\n- b\n---\n', 'x.md')).code).toBe('FrontMatterNotMapping');
  });
});

function catchError(run: () => unknown): SsgError {
  try {
    run();
  } catch (error) {
    if (error instanceof SsgError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('splitFrontMatter over generated files (fast-check)', () => {
  const eol = fc.constantFrom('\n', '\r\n', '\r');
  /** Text a value may hold: front matter's fence lines and line breaks among them. */
  const text = fc.oneof(
    fc.string(),
    fc.constantFrom('---', '+++', '{', '}', 'a\n---\nb', '  ---  ', 'x: y', '# heading', '2024', '1.10', 'true'),
  );
  const value = fc.oneof(
    text,
    fc.integer(),
    fc.boolean(),
    fc.array(text, { maxLength: 4 }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), text, { maxKeys: 3 }),
  );
  const data = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 12 }).filter((key) => key.trim() === key && key !== '__proto__'),
    value,
    { maxKeys: 6 },
  );
  /** A body: Markdown lines, rules (---, +++) among them, never blank at its start (the fence must come first). */
  const body = fc.array(
    fc.oneof(
      fc.string().map((line) => line.replace(/[\r\n]/g, ' ')),
      fc.constantFrom('---', '+++', '{', '}', '', '    ---'),
    ),
    { maxLength: 8 },
  );
  const withEol = (lines: string[], ending: string) => lines.join(ending);

  it('YAML, TOML-free: reads the data as written and never puts front matter into the body, whatever the line endings, BOM or blank lines before it', () => {
    fc.assert(
      fc.property(
        data,
        body,
        eol,
        fc.boolean(),
        fc.nat({ max: 2 }),
        fc.constantFrom('block', 'flow'),
        (values, bodyLines, ending, bom, blanks, style) => {
          const yaml = stringify(values, { collectionStyle: style }).replace(/\n$/, '').split('\n');
          const lines = [
            ...Array<string>(blanks).fill(''),
            '---',
            ...(Object.keys(values).length ? yaml : []),
            '---',
            ...bodyLines,
          ];
          const source = (bom ? '\ufeff' : '') + withEol(lines, ending);
          // The same YAML read alone, with \n line endings (how YAML reads any line break).
          const expected = parse(yaml.join('\n')) ?? {};
          const result = splitFrontMatter(source, 'a.md');
          expect(result.data).toEqual(Object.keys(values).length ? expected : {});
          expect(result.body).toBe(bodyLines.join('\n'));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('TOML and JSON front matter read as their own parsers read them, the body left whole', () => {
    const plain = fc.dictionary(
      fc.string({ minLength: 1, maxLength: 10 }).filter((key) => key !== '__proto__'),
      fc.oneof(text, fc.integer(), fc.boolean(), fc.array(text, { maxLength: 3 })),
      { maxKeys: 5 },
    );
    fc.assert(
      fc.property(plain, body, eol, fc.boolean(), (values, bodyLines, ending, json) => {
        const inner = json
          ? JSON.stringify(values, null, 2).split('\n')
          : ['+++', ...stringifyToml(values).split('\n'), '+++'];
        // A JSON object whose keys are all on its first line would have no `{` line of its own: `{}` is written as two lines.
        const block = json ? (inner.length === 1 ? ['{', '}'] : inner) : inner;
        const result = splitFrontMatter(withEol([...block, ...bodyLines], ending), 'a.md');
        expect(result.data).toEqual(JSON.parse(JSON.stringify(values)));
        expect(result.body).toBe(bodyLines.join('\n'));
      }),
      { numRuns: 200 },
    );
  });

  it("finds any file's lines, body and the body's first line as the line-ending pattern does", () => {
    const piece = fc.oneof(fc.string(), fc.constantFrom('\n', '\r\n', '\r', '\n\r', '---', '+++', '\ufeff', ''));
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join('')),
        (source) => {
          const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
          const lines = text.split(/\r\n|\r|\n/);
          expect(linesOf(source)).toEqual(lines);
          const body = bodyOf(source);
          expect(bodyStartLine(source, body)).toBe(lines.length - linesOf(body).length + 1);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws anything but a named error, for any text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc
            .array(fc.oneof(fc.string(), fc.constantFrom('---', '+++', '{', '}', '', 'a: &a [1]', 'b: *a')), {
              maxLength: 10,
            })
            .map((lines) => lines.join('\n')),
        ),
        (source) => {
          try {
            const { data, body } = splitFrontMatter(source, 'a.md');
            expect(typeof data).toBe('object');
            expect(typeof body).toBe('string');
          } catch (error) {
            expect(error).toBeInstanceOf(SsgError);
            expect((error as SsgError).file).toBe('a.md');
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
