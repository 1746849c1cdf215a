// Code blocks: a fence's title and marked lines, read from its meta as documentation sites write
// them; marking lines never changes the code a reader copies, whatever the code and the marks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertMarkdown } from '../src/content/markdown.ts';
import { lineRanges, parseCodeMeta } from '../src/content/markdown-code.ts';

const html = (markdown: string) => convertMarkdown(markdown).html;
/** The text of each `<code>` (what the copy button copies), entities decoded. */
const codeTexts = (out: string) =>
  [...out.matchAll(/<code[^>]*>([\s\S]*?)<\/code>/g)].map((match) =>
    match[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&amp;/g, '&'),
  );

describe('the meta of a fence', () => {
  it.each([
    ['title="src/a.ts"', { title: 'src/a.ts', marks: [] }],
    ["title='a b.ts' {2}", { title: 'a b.ts', marks: [[2, 2]] }],
    ['title=a.ts mark=3-5', { title: 'a.ts', marks: [[3, 5]] }],
    [
      '{1,3-4}',
      {
        marks: [
          [1, 1],
          [3, 4],
        ],
      },
    ],
    ['mark={2}', { marks: [[2, 2]] }],
    [
      'hl_lines="1 3"',
      {
        marks: [
          [1, 1],
          [3, 3],
        ],
      },
    ],
    ['highlight=7', { marks: [[7, 7]] }],
    ['title=""', { marks: [] }],
    ['{5-2} {x}', { marks: [] }],
    ['showLineNumbers', { marks: [] }],
    ['title="{1}"', { title: '{1}', marks: [] }],
  ])('%s', (meta, expected) => {
    expect(parseCodeMeta(meta)).toEqual(expected);
  });

  it('ranges are kept as ranges (never listed line by line); a range from 0 starts at 1; absurd numbers are left out', () => {
    expect(lineRanges('1-999999999')).toEqual([[1, 999999999]]);
    expect(lineRanges('0,0-3,1-9999999999,5-2')).toEqual([[1, 3]]);
  });

  it.each([
    [
      '{linenos=table,hl_lines=[8,"15-17"]}',
      [
        [8, 8],
        [15, 17],
      ],
    ],
    [
      '{hl_lines=[2,3]}',
      [
        [2, 2],
        [3, 3],
      ],
    ],
    [
      '{2-3} {5}',
      [
        [2, 3],
        [5, 5],
      ],
    ],
    [
      'title="a" {1} mark=4',
      [
        [4, 4],
        [1, 1],
      ],
    ],
  ])("Hugo's forms and several groups: %s", (meta, marks) => {
    expect(parseCodeMeta(meta).marks).toEqual(marks);
  });

  it('a fence with many marks over many lines marks each of them', () => {
    const lines = Array.from({ length: 20_000 }, (_, n) => `line ${n}`).join('\n');
    const marks = Array.from({ length: 20_000 }, (_, n) => `${n * 2 + 1}`).join(',');
    const out = html(`\`\`\`{${marks}}\n${lines}\n\`\`\`\n`);
    expect(out.match(/<mark class="code-mark">/g)).toHaveLength(10_000);
  });
});

describe('code blocks on the page', () => {
  it('a title becomes the caption, marks wrap their lines, the highlighting kept', () => {
    const out = html('```ts title="a.ts" {2}\nconst a = 1;\n/* one\ntwo */\n```\n');
    expect(out).toBe(
      '<figure class="code-block"><figcaption class="code-title">a.ts</figcaption><pre><code class="hljs language-ts"><span class="hljs-keyword">const</span> a = <span class="hljs-number">1</span>;\n' +
        '<mark class="code-mark"><span class="hljs-comment">/* one\n</span></mark><span class="hljs-comment">two */</span>\n</code></pre>' +
        '<ssg-island data-island="ssg-copy-code" data-hydrate="interaction" data-props="{}"><button type="button" class="code-copy" aria-label="Copy code">Copy</button><span class="code-copy-status" role="status"></span></ssg-island></figure>',
    );
  });

  it('a fence with no language may start with its meta', () => {
    expect(html('```{1}\na\nb\n```\n')).toContain('<pre><code><mark class="code-mark">a\n</mark>b\n</code></pre>');
    expect(html('```title="notes.txt"\nx\n```\n')).toContain(
      '<figcaption class="code-title">notes.txt</figcaption><pre><code>x\n</code></pre>',
    );
  });

  it('an author cannot write the caption or the marks in raw HTML into something else, nor an island', () => {
    expect(html('Inline <code data-code-title="x" data-code-mark="1">y</code>.')).toBe('<p>Inline <code>y</code>.</p>');
    const out = html(
      '<pre><code data-code-title="<b>x</b>" data-code-mark="1">a</code></pre>\n\n<ssg-island data-island="contact-form" data-hydrate="load">x</ssg-island>\n',
    );
    expect(out).toContain('<figcaption class="code-title">&#x3C;b>x&#x3C;/b></figcaption>');
    expect(out).not.toContain('data-island="contact-form"');
    expect(out.match(/<ssg-island/g)).toHaveLength(1);
  });

  it('the words of an article do not count its copy buttons; its headings are listed', () => {
    const converted = convertMarkdown('## One two\n\nthree four\n\n```\nfive\n```\n');
    expect(converted.words).toBe(5);
    expect(converted.headings).toEqual([{ depth: 2, id: 'one-two', text: 'One two' }]);
  });

  it('marking lines never changes the code, for any code, language and marks', () => {
    const line = fc.stringMatching(/^[a-z0-9 '"/*{}()<>&;=.+-]{0,20}$/);
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('', 'ts', 'js', 'bash', 'html', 'css', 'json', 'python'),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 3 })), { maxLength: 3 }),
        fc.boolean(),
        (lines, language, ranges, titled) => {
          const code = `${lines.join('\n')}\n`;
          if (code.includes('```')) return;
          const marks = ranges
            .map(([from, length]) => (length === 0 ? `${from}` : `${from}-${from + length}`))
            .join(',');
          const meta = `${language}${titled ? ' title="x.txt"' : ''}${marks ? ` {${marks}}` : ''}`;
          const plain = codeTexts(html(`\`\`\`${language}\n${code}\`\`\`\n`));
          const marked = html(`\`\`\`${meta}\n${code}\`\`\`\n`);
          expect(codeTexts(marked)).toEqual(plain);
          const wanted = lines.filter((_, index) =>
            ranges.some(([from, length]) => index + 1 >= from && index + 1 <= from + length),
          ).length;
          expect(marked.match(/<mark class="code-mark">/g)?.length ?? 0).toBe(wanted);
        },
      ),
      { numRuns: 200 },
    );
  });
});
