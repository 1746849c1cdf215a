import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { articleLinkTarget, convertMarkdown } from '../src/content/markdown.ts';

const idsOf = (html: string) => [...html.matchAll(/\sid="([^"]*)"/g)].map((match) => match[1]!);

describe('heading ids and anchors', () => {
  it('gives every heading a GitHub-style id without the user-content- prefix, and an anchor linking to it', () => {
    const { html } = convertMarkdown('## Set-up & keys\n\n### Set-up & keys\n\n#\n\n## !!!');
    expect(idsOf(html)).toEqual(['set-up--keys', 'set-up--keys-1', 'section', 'section-1']);
    expect(html).toContain(
      '<a class="heading-anchor" aria-label="Link to the section “Set-up &#x26; keys”" href="#set-up--keys">#</a></h2>',
    );
    expect(html).not.toContain('user-content-');
  });
});

describe('code highlighting', () => {
  it('marks up a fence that names its language with hljs classes, never a style attribute', () => {
    const { html } = convertMarkdown('```js\nconst answer = "42";\n```');
    expect(html).toContain('<code class="hljs language-js"><span class="hljs-keyword">const</span>');
    expect(html).toContain('<span class="hljs-string">"42"</span>');
    expect(html).not.toMatch(/\sstyle=/);
  });

  it('leaves a fence with an unknown or no language as plain, escaped text', () => {
    const copy =
      '<ssg-island data-island="ssg-copy-code" data-hydrate="interaction" data-props="{}"><button type="button" class="code-copy" aria-label="Copy code">Copy</button><span class="code-copy-status" role="status"></span></ssg-island>';
    expect(convertMarkdown('```nosuchlanguage\n<b>x</b>\n```').html).toBe(
      `<div class="code-block"><pre><code class="hljs language-nosuchlanguage">&#x3C;b>x&#x3C;/b>\n</code></pre>${copy}</div>`,
    );
    expect(convertMarkdown('```\nconst x = 1;\n```').html).toBe(
      `<div class="code-block"><pre><code>const x = 1;\n</code></pre>${copy}</div>`,
    );
  });
});

describe('raw HTML', () => {
  it('keeps what GitHub keeps, silently; comments go without a word', () => {
    const result = convertMarkdown(
      'Intro\n\n<div>block</div>\n\ntext <b>bold</b>, H<sub>2</sub>O, <kbd>Ctrl</kbd> and <abbr title="Proof of Stake">PoS</abbr>\n\n<!-- a note -->\n',
    );
    expect(result.removedHtml).toEqual([]);
    expect(result.html).toContain('<div>block</div>');
    expect(result.html).toContain(
      '<b>bold</b>, H<sub>2</sub>O, <kbd>Ctrl</kbd> and <abbr title="Proof of Stake">PoS</abbr>',
    );
    expect(result.html).not.toContain('note');
  });

  it('removes scripts, handlers, styles and other schemes, and says what and on which line', () => {
    const result = convertMarkdown(
      '<p onclick="x()" style="color:red">a</p>\n\n<script>alert(1)</script>\n\n<a href="javascript:alert(1)">b</a> <iframe src="/x"></iframe>\n',
    );
    expect(result.removedHtml).toEqual([
      { line: 1, what: 'the onclick attribute of <p>' },
      { line: 1, what: 'the style attribute of <p>' },
      { line: 3, what: '<script> and its content' },
      { line: 5, what: 'the href "javascript:alert(1)" of <a>' },
      { line: 5, what: '<iframe> (its text is kept)' },
    ]);
    expect(result.html).toBe('<p>a</p>\n\n<p><a>b</a> </p>');
  });

  it('reports nothing in code, where HTML is text', () => {
    expect(convertMarkdown('`<b>`\n\n```html\n<div></div>\n```').removedHtml).toEqual([]);
  });
});

describe('links to other articles', () => {
  it('rewrites a relative link to an .md file into the slug, keeping the fragment', () => {
    expect(articleLinkTarget('other-post.md')).toBe('other-post');
    expect(articleLinkTarget('../2024/other-post.md#part')).toBe('other-post#part');
    expect(articleLinkTarget('./a.md?x=1#y')).toBe('a?x=1#y');
    // An MDX article is an article too.
    expect(articleLinkTarget('../2024/other-post.mdx#part')).toBe('other-post#part');
    expect(convertMarkdown('[next](other-post.md#setup)').html).toBe('<p><a href="other-post#setup">next</a></p>');
    expect(convertMarkdown('[next][n]\n\n[n]: other-post.md').html).toBe('<p><a href="other-post">next</a></p>');
  });

  it('leaves other links alone', () => {
    for (const url of [
      'https://example.org/a.md',
      '/news/a.md',
      '#a.md',
      'mailto:a@b.md',
      'readme.mdxx',
      'docs/',
      '//cdn.example/a.md',
    ]) {
      expect(articleLinkTarget(url)).toBe(url);
    }
  });
});

/** Markdown built from pieces that stress the pipeline: headings, fences, raw HTML, links. */
const markdownPiece = fc.oneof(
  fc.string(),
  fc.string().map((text) => `# ${text}`),
  fc.string().map((text) => `## ${text}\n`),
  fc
    .tuple(fc.constantFrom('js', 'ts', 'sh', 'python', 'css', 'nope', ''), fc.string())
    .map(([lang, code]) => `\`\`\`${lang}\n${code}\n\`\`\``),
  fc.constantFrom(
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:x">j</a>',
    '<div style="color:red">s</div>',
  ),
  fc
    .constantFrom('javascript', 'JaVaScRiPt', ' javascript', 'vbscript', 'data')
    .map((scheme) => `[x](${scheme}:alert(1))`),
  fc.string().map((text) => `[${text}](${text}.md#${text})`),
);
const randomMarkdown = fc.array(markdownPiece, { maxLength: 12 }).map((pieces) => pieces.join('\n\n'));

describe('any Markdown', () => {
  it('converts without throwing; ids unique and non-empty; no style attribute, script, event handler or javascript: link', () => {
    fc.assert(
      fc.property(randomMarkdown, (markdown) => {
        const { html, removedHtml } = convertMarkdown(markdown);
        const ids = idsOf(html);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.every((id) => id !== '')).toBe(true);
        expect(html).not.toMatch(/\sstyle=|<script|\son[a-z]+=|(?:href|src)="\s*(?:javascript|vbscript|data):/i);
        expect(removedHtml.every(({ line }) => Number.isInteger(line) && line >= 1)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('every anchor points to the id of its own heading', () => {
    fc.assert(
      fc.property(randomMarkdown, (markdown) => {
        const { html } = convertMarkdown(markdown);
        for (const match of html.matchAll(
          /<h[1-6] id="([^"]*)">(?:(?!<\/h[1-6]>)[\s\S])*?<a class="heading-anchor"[^>]*href="#([^"]*)">#<\/a><\/h[1-6]>/g,
        )) {
          expect(match[2]).toBe(match[1]);
        }
      }),
      { numRuns: 200 },
    );
  });
});
