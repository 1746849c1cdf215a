import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../src/content/markdown.ts';

describe('markdownToHtml', () => {
  it('converts Markdown to HTML', () => {
    expect(markdownToHtml('# Title\n\nSome *text* and `code`.')).toBe(
      '<h1 id="title">Title<a class="heading-anchor" aria-label="Link to the section “Title”" href="#title">#</a></h1>\n<p>Some <em>text</em> and <code>code</code>.</p>',
    );
  });

  it('supports GitHub tables and strikethrough', () => {
    const html = markdownToHtml('| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~');
    expect(html).toContain('<table>');
    expect(html).toContain('<td>1</td>');
    expect(html).toContain('<del>old</del>');
  });

  it('never passes a <script> through, as a block or inline', () => {
    const html = markdownToHtml('<script>alert(1)</script>\n\nText <script src="x.js"></script> more');
    expect(html).not.toMatch(/<script/i);
  });

  it('keeps safe raw HTML and drops event handlers and frames', () => {
    const html = markdownToHtml('<img src="x" onerror="alert(1)">\n\n<iframe src="https://evil.example"></iframe>');
    expect(html).not.toMatch(/onerror|<iframe|evil/i);
    expect(html).toContain('<img src="x">');
  });

  it('never lets a javascript: link reach the output, whatever its case or form', () => {
    const html = markdownToHtml(
      '[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](  javascript:x) ![d](javascript:y)\n\n[e]: javascript:z\n\n[e]',
    );
    expect(html).not.toMatch(/javascript:/i);
    expect(html).toContain('<a>a</a>');
  });

  it('keeps safe links', () => {
    expect(markdownToHtml('[site](https://example.com) [mail](mailto:a@b.c) [rel](/news)')).toContain(
      '<a href="https://example.com">site</a> <a href="mailto:a@b.c">mail</a> <a href="/news">rel</a>',
    );
  });
});
