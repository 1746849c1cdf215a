import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reportRemovedHtml } from '../src/content/article-parser.ts';
import { type Article } from '../src/content/article.ts';
import { convertMarkdown, markdownToHtml } from '../src/content/markdown.ts';

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

const RAW_TEXT_TAGS = ['title', 'textarea', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'script', 'plaintext'];
/** A tag name in any letter case (the HTML parser reads `<STYLE>` as `<style>`). */
const anyCase = (tag: string) =>
  fc
    .array(fc.boolean(), { minLength: tag.length, maxLength: tag.length })
    .map((upper) => [...tag].map((letter, index) => (upper[index] ? letter.toUpperCase() : letter)).join(''));

describe('a raw-text tag never closed (GitHub tag filter)', () => {
  it('is shown as text and noted with its line, and the rest of the article renders', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RAW_TEXT_TAGS).chain((tag) => fc.tuple(fc.constant(tag), anyCase(tag))),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        ([tag, written], inline, before) => {
          const intro = 'Intro.\n\n'.repeat(before);
          const opening = inline ? `Some ${'<'}${written} attr="x"> text` : `<${written}>`;
          const { html, removedHtml } = convertMarkdown(`${intro}${opening}\n\nThen <kbd>Ctrl</kbd> and *more*.\n`);
          expect(html).toContain(`&#x3C;${written}`);
          expect(html).toContain('<kbd>Ctrl</kbd>');
          expect(html).not.toMatch(new RegExp(`<${tag}[\\s>]`, 'i'));
          expect(removedHtml).toEqual([{ line: 2 * before + 1, what: `<${tag}>`, escaped: true }]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a closed one is left to the sanitiser (removed, and said so), and a comment or code holding one is no tag', () => {
    const closed = convertMarkdown('<style>p { color: red }</style>\n\n- item\n');
    expect(closed.html).toContain('<li>item</li>');
    expect(closed.removedHtml.some((item) => item.escaped)).toBe(false);
    expect(convertMarkdown('<!-- <style> -->\n\n- item\n').html).toContain('<li>item</li>');
    expect(convertMarkdown('`<style>`\n\n- item\n').removedHtml).toEqual([]);
    // A second tag the first held as text is open in turn once the first is escaped.
    const both = convertMarkdown('<strong> <title> <style> <em>\n');
    expect(both.removedHtml.map((item) => item.what)).toEqual(['<title>', '<style>']);
  });

  it('is warned about by name, line and the end tag to write', () => {
    const warnings: string[] = [];
    reportRemovedHtml(
      { file: 'content/news/x.md', bodyLine: 5 } as Article,
      [{ line: 3, what: '<style>', escaped: true }],
      (message) => warnings.push(message),
    );
    expect(warnings).toEqual([
      expect.stringMatching(
        /^content\/news\/x\.md:7: <style> is never closed, so shown as text.*close it \(<\/style>\)/,
      ),
    ]);
    // Many on one line are one warning; an end tag without its ">" says what to write.
    const many: string[] = [];
    const tags = [
      ...Array(50).fill({ line: 1, what: '<title>', escaped: true }),
      { line: 1, what: '</style', escaped: true },
    ];
    reportRemovedHtml({ file: 'content/news/x.md', bodyLine: 1 } as Article, tags, (message) => many.push(message));
    expect(many).toEqual([
      expect.stringMatching(
        /^content\/news\/x\.md:1: <title> is never closed.*; <\/style without its ">" is shown as text.*write <\/style>/,
      ),
    ]);
  });

  it('an end tag without its ">" would swallow what follows: it is text, and its start tag too', () => {
    const { html, removedHtml } = convertMarkdown(
      'First.\n\n<style>\np { color: red }\n</style\n\nSecond paragraph.\n\nThird with a > sign.\n',
    );
    expect(html).toContain('&#x3C;/style');
    expect(html).toContain('Second paragraph.');
    expect(html).toContain('Third with a ');
    expect(removedHtml).toEqual([
      { line: 3, what: '<style>', escaped: true },
      { line: 5, what: '</style', escaped: true },
    ]);
  });

  it('reads comments and attribute values as the HTML parser does', () => {
    // `<!-->` is a whole (empty) comment, and `<!--` in an attribute value is text: the tag after each is live.
    for (const markdown of [
      '<!--> <style>\n\nrest *here*\n',
      '<!---> <style>\n\nrest *here*\n',
      '<div title="<!--"><textarea>\n\nrest *here*\n',
    ]) {
      const { html, removedHtml } = convertMarkdown(markdown);
      expect(html, markdown).toContain('<em>here</em>');
      expect(
        removedHtml.filter((item) => item.escaped),
        markdown,
      ).toHaveLength(1);
    }
    // A tag name inside an attribute value is no tag.
    expect(convertMarkdown('<img alt="<style>" src="x">\n\nrest\n').removedHtml).toEqual([]);
    // Lines end with CR, LF or both.
    expect(convertMarkdown('<div>\rfoo\r<style>\r\rrest').removedHtml).toEqual([
      { line: 3, what: '<style>', escaped: true },
    ]);
  });

  it('escapes every one of many unclosed tags in one paragraph', () => {
    const { html, removedHtml } = convertMarkdown(`x ${'<title> '.repeat(2000)}*end*\n`);
    expect(removedHtml).toHaveLength(2000);
    expect(html).toContain('<em>end</em>');
  });
});

describe('<a name> anchors, as Markdown written for GitHub marks a place', () => {
  it('are link targets: a link to #name points at the prefixed name', () => {
    const html = markdownToHtml('<a name="install"></a>\nHow to install.\n\nSee [installing](#install).\n');
    expect(html).toContain('<a name="user-content-install"></a>');
    expect(html).toContain('<a href="#user-content-install">installing</a>');
  });
});

describe('URL schemes, read as the sanitiser reads them', () => {
  it('keeps an allowed scheme in capitals (in lower case) and warns of every address it drops', () => {
    expect(convertMarkdown('[mail](MAILTO:a@b.c) [web](HTTPS://example.com)').html).toBe(
      '<p><a href="mailto:a@b.c">mail</a> <a href="https://example.com">web</a></p>',
    );
    const odd = convertMarkdown('[link](foo\\):)');
    expect(odd.html).toBe('<p><a>link</a></p>');
    expect(odd.removedHtml).toEqual([{ line: 1, what: 'the href "foo):" of <a>' }]);
    // A colon after a slash, question mark or number sign is no scheme's.
    expect(convertMarkdown('[a](./x:y) [b](?q=1:2) [c](#x:y)').removedHtml).toEqual([]);
  });
});
