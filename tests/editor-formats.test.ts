// The formats the editor at /admin reads and writes content files with (src/runtime/editor-formats.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArticle } from '../src/content/article-parser.ts';
import { articleFormat } from '../src/runtime/editor-formats.ts';

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
