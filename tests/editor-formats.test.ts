// The formats the editor at /admin reads and writes content files with (src/runtime/editor-formats.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArticle } from '../src/content/article-parser.ts';
import { parse, stringify } from 'yaml';
import { articleFormat, dataFormat } from '../src/runtime/editor-formats.ts';

const fields = ['title', 'date', 'updated', 'excerpt', 'tags', 'image', 'body'].map((name) => ({ name }));
const format = articleFormat(fields);
const now = new Date('2026-01-01T00:00:00Z');

describe("the editor's article format", () => {
  it('leaves out a field cleared in the form, so the build reads the article as if the line were deleted', () => {
    const file = format.toFile({
      title: 'Cleared',
      date: '2025-02-01',
      updated: '',
      excerpt: '',
      image: null,
      tags: [],
      body: 'Text.\n',
    });
    expect(file).toBe('---\ntitle: Cleared\ndate: 2025-02-01\n---\nText.\n');
    const article = parseArticle({ file: 'content/news/cleared.md', text: file }, { now, warn: () => {} });
    expect(article).toMatchObject({ title: 'Cleared', date: '2025-02-01' });
    expect(article.updated).toBeUndefined();
  });

  it('reads what it writes: the fields with a value, in the order of the form, and the body as it was', () => {
    const text = fc.string({ minLength: 1 }).filter((value) => value.trim() !== '');
    fc.assert(
      fc.property(
        fc.record({ title: text, excerpt: fc.option(text, { nil: '' }), tags: fc.array(text, { maxLength: 3 }) }),
        fc.string(),
        (data, body) => {
          const read = format.fromFile(format.toFile({ ...data, body })) as Record<string, unknown>;
          const expected = Object.fromEntries(
            Object.entries(data).filter(([, value]) => value !== '' && !(Array.isArray(value) && value.length === 0)),
          );
          expect(read).toEqual({ ...expected, body });
          expect(Object.keys(read).slice(0, -1)).toEqual(Object.keys(expected));
        },
      ),
    );
  });

  it('reads a file written by hand: no front matter, Windows line ends, keys the form does not know kept', () => {
    expect(format.fromFile('Just text\n')).toEqual({ body: 'Just text\n' });
    expect(format.fromFile('---\r\ntitle: A\r\nlayout: post\r\n---\r\nBody\r\n')).toEqual({
      title: 'A',
      layout: 'post',
      body: 'Body\r\n',
    });
    expect(format.toFile({ body: 'x', layout: 'post', title: 'A' })).toBe('---\ntitle: A\nlayout: post\n---\nx');
  });
});

describe("the editor's data format", () => {
  const file = [
    '# Team cards on /about.',
    '- name: Alice # the name as on her card',
    '  role: Engineer',
    '  # A link to her profile.',
    '  link: https://example.org/alice',
    '- name: Bob',
    '  role: Operator',
    '',
  ].join('\n');

  it("keeps the file's comments when a value is changed, an entry added and a field removed", () => {
    const format = dataFormat(true, [], 'items');
    const read = format.fromFile(file) as { items: Array<Record<string, unknown>> };
    read.items[0]!.role = 'Lead';
    delete read.items[1]!.role;
    read.items.push({ name: 'Carol', role: 'Support' });
    const saved = format.toFile(read);
    expect(saved).toContain('# Team cards on /about.');
    expect(saved).toContain('name: Alice # the name as on her card');
    expect(saved).toContain('# A link to her profile.');
    expect(parse(saved)).toEqual([
      { name: 'Alice', role: 'Lead', link: 'https://example.org/alice' },
      { name: 'Bob' },
      { name: 'Carol', role: 'Support' },
    ]);
  });

  it('saves exactly the values of the form, whatever the file held before (fast-check)', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(value, fc.dictionary(fc.string({ minLength: 1 }), value), (before, after) => {
        const format = dataFormat(false, [], 'items');
        format.fromFile(stringify(before));
        expect(parse(format.toFile(after))).toEqual(after);
      }),
    );
  });
});
