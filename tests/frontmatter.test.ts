import { describe, expect, it } from 'vitest';
import { SsgError } from '../src/errors.ts';
import { splitFrontMatter } from '../src/content/frontmatter.ts';

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
