// Articles as authors write them on GitHub: all of GFM, GitHub's alerts, the HTML GitHub keeps;
// and, tried as an attacker would, nothing executable ever comes out, for known XSS vectors and
// generated mixtures of them, converted alone and built into whole pages.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertMarkdown } from '../src/content/markdown.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const html = (markdown: string) => convertMarkdown(markdown).html;

describe('GitHub Flavored Markdown', () => {
  it('tables, strikethrough, task lists', () => {
    const out = html('| a | b |\n|---|:-:|\n| 1 | 2 |\n\n~~gone~~\n\n- [x] done\n- [ ] to do\n');
    expect(out).toContain('<table>');
    expect(out).toContain('<td align="center">2</td>');
    expect(out).toContain('<del>gone</del>');
    expect(out).toMatch(
      /<ul class="contains-task-list">\n<li class="task-list-item"><input type="checkbox" checked disabled> done<\/li>/,
    );
  });

  it('bare URLs, www. addresses and e-mail addresses become links; code stays text', () => {
    const out = html('See https://example.com/a?b=1, www.example.org and ops@example.com.\n\n`https://not.a.link`');
    expect(out).toContain('<a href="https://example.com/a?b=1">https://example.com/a?b=1</a>,');
    expect(out).toContain('<a href="http://www.example.org">www.example.org</a>');
    expect(out).toContain('<a href="mailto:ops@example.com">ops@example.com</a>');
    expect(out).toContain('<code>https://not.a.link</code>');
  });

  it('footnotes: numbered references, notes at the end with a labelled heading and links back, ids that never clash', () => {
    const out = html('# Footnotes\n\nOne[^a] and two[^word].\n\n[^a]: First note.\n[^word]: Second.\n');
    expect(out).toContain(
      '<sup><a href="#note-fn-a" id="note-fnref-a" data-footnote-ref aria-describedby="note-footnote-label">1</a></sup>',
    );
    expect(out).toContain(
      '<section data-footnotes class="footnotes"><h2 class="sr-only" id="note-footnote-label">Footnotes</h2>',
    );
    expect(out).toContain('<li id="note-fn-word">');
    expect(out).toContain(
      '<a href="#note-fnref-a" data-footnote-backref="" aria-label="Back to reference 1" class="data-footnote-backref">↩</a>',
    );
    // The article's own heading "Footnotes" keeps its id; the hidden one gets no anchor.
    expect(out).toMatch(/<h1 id="footnotes">Footnotes<a class="heading-anchor"/);
    expect(out).not.toMatch(/sr-only[^>]*>Footnotes<a/);
    const ids = [...out.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const href of [...out.matchAll(/href="#([^"]+)"/g)].map((match) => match[1])) expect(ids).toContain(href);
  });

  it('a one-word footnote is a footnote, not a stray link', () => {
    const out = html('Text[^note].\n\n[^note]: word\n');
    expect(out).toContain('data-footnote-ref');
    expect(out).not.toContain('[^note]');
  });
});

describe("GitHub's alerts", () => {
  it.each(['NOTE', 'TIP', 'IMPORTANT', 'WARNING', 'CAUTION'])('[!%s] becomes a titled callout', (kind) => {
    const out = html(`> [!${kind}]\n> Mind the **gap**.\n`);
    const title = kind[0] + kind.slice(1).toLowerCase();
    expect(out).toBe(
      `<div class="markdown-alert markdown-alert-${kind.toLowerCase()}" role="note">\n<p class="markdown-alert-title">${title}</p>\n<p>Mind the <strong>gap</strong>.</p>\n</div>`,
    );
  });

  it('a marker followed by text on its line, or an unknown kind, is a plain quote', () => {
    expect(html('> [!NOTE] same line\n')).toContain('<blockquote>');
    expect(html('> [!DANGER]\n> text\n')).toContain('<blockquote>');
  });
});

describe('HTML GitHub keeps', () => {
  it('sub, sup, kbd, abbr, ins, del, details, summary, br and mark survive as written', () => {
    const source =
      'H<sub>2</sub>O, x<sup>2</sup>, <kbd>Ctrl</kbd>, <abbr title="Proof of Stake">PoS</abbr>, <ins>new</ins> <del>old</del>, a<br>b, <mark>key</mark>\n\n<details><summary>More</summary>\n\nHidden text.\n\n</details>\n';
    const { html: out, removedHtml } = convertMarkdown(source);
    expect(removedHtml).toEqual([]);
    for (const piece of [
      'H<sub>2</sub>O',
      'x<sup>2</sup>',
      '<kbd>Ctrl</kbd>',
      '<abbr title="Proof of Stake">PoS</abbr>',
      '<ins>new</ins> <del>old</del>',
      'a<br>b',
      '<mark>key</mark>',
      '<details><summary>More</summary>',
      '<p>Hidden text.</p>',
    ]) {
      expect(out).toContain(piece);
    }
  });
});

/** Known ways to smuggle script into a page, in HTML and in Markdown. */
const VECTORS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)><circle r="1"/></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<a href="javascript:alert(1)">a</a>',
  '<a href="JaVaScRiPt:alert(1)">a</a>',
  '<a href="&#106;avascript:alert(1)">a</a>',
  '<a href="java&#x09;script:alert(1)">a</a>',
  '<a href=" javascript:alert(1)">a</a>',
  '<a href="vbscript:msgbox(1)">a</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">a</a>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">x</button></form>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<template><script>alert(1)</script></template>',
  '<textarea><script>alert(1)</script></textarea>',
  '<style>body{background:url(javascript:alert(1))}</style>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:/">',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<details open ontoggle=alert(1)>x</details>',
  '<input autofocus onfocus=alert(1)>',
  '<video><source onerror=alert(1)></video>',
  '<body onload=alert(1)>',
  '<p id="location" name="cookie">clobber</p>',
  '[a](javascript:alert(1))',
  '[a](<javascript:alert(1)>)',
  '![a](javascript:alert(1))',
  '[a][r]\n\n[r]: javascript:alert(1)',
  '<https://example.com/"onmouseover="alert(1)>',
  '<javascript:alert(1)>',
  '`<script>` and\n\n```html\n<script>alert(1)</script>\n```',
];

const UNSAFE_URL = /^(?:javascript|vbscript|data|livescript):/i;
const FORBIDDEN_ELEMENTS = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'meta',
  'link',
  'form',
  'template',
  'svg',
  'math',
  'noscript',
  'textarea',
]);

/** Everything executable or styling found in article HTML, as a browser would parse it. */
function executable(fragment: string): string[] {
  const found: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (FORBIDDEN_ELEMENTS.has(name)) found.push(`<${name}>`);
        for (const [key, value] of Object.entries(attributes)) {
          if (key.startsWith('on') || key === 'style' || key === 'srcdoc' || key === 'formaction' || key === 'action')
            found.push(`${key} on <${name}>`);
          // Browsers drop tabs and newlines inside a URL's scheme, and leading spaces.
          if (
            ['href', 'src', 'xlink:href', 'cite', 'data', 'poster', 'srcset'].includes(key) &&
            UNSAFE_URL.test(value.replace(/[\t\n\r]/g, '').trim())
          )
            found.push(`${key}="${value}" on <${name}>`);
        }
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true, lowerCaseTags: true },
  );
  parser.write(fragment);
  parser.end();
  return found;
}

/**
 * What a whole page carries that could run: scripts other than the site's own (bundles, JSON-LD, loader),
 * event handlers, style attributes, frames, objects, and javascript: URLs.
 */
function pageProblems(page: string): string[] {
  const found: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        // The site's own: its bundles, JSON-LD, and the island loader (whose hash the CSP lists).
        const own =
          attributes.src?.startsWith('/assets/') ||
          attributes.type === 'application/ld+json' ||
          attributes['data-loader'] !== undefined;
        if (name === 'script' && !own) found.push('<script> not the site’s own');
        if (['iframe', 'frame', 'object', 'embed', 'applet', 'base', 'template'].includes(name))
          found.push(`<${name}>`);
        for (const [key, value] of Object.entries(attributes)) {
          if (key.startsWith('on') || key === 'style' || key === 'srcdoc' || key === 'formaction')
            found.push(`${key} on <${name}>`);
          if (/^(?:javascript|vbscript):/i.test(value.replace(/[\t\n\r]/g, '').trim()))
            found.push(`${key}="${value}" on <${name}>`);
        }
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true, lowerCaseTags: true },
  );
  parser.write(page);
  parser.end();
  return found;
}

describe('nothing executable survives', () => {
  it('each known vector, alone and in Markdown around it, is made harmless and warned about where it removes something', () => {
    for (const vector of VECTORS) {
      for (const source of [vector, `Text before.\n\n${vector}\n\nText after.`, `- item ${vector}`, `> ${vector}`]) {
        const { html: out } = convertMarkdown(source);
        expect(executable(out), `${JSON.stringify(source)} → ${out}`).toEqual([]);
      }
    }
    const { removedHtml } = convertMarkdown(VECTORS.join('\n\n'));
    expect(removedHtml.length).toBeGreaterThan(20);
    expect(removedHtml.every(({ line }) => line >= 1)).toBe(true);
  });

  it('for generated mixtures of vectors, tags, attributes and Markdown', () => {
    const tag = fc.constantFrom(
      'a',
      'img',
      'svg',
      'math',
      'div',
      'p',
      'details',
      'iframe',
      'script',
      'style',
      'object',
      'table',
      'select',
      'noscript',
      'kbd',
      'abbr',
      'sub',
    );
    const attribute = fc.tuple(
      fc.constantFrom(
        'href',
        'src',
        'onerror',
        'onclick',
        'style',
        'id',
        'name',
        'title',
        'srcdoc',
        'formaction',
        'xlink:href',
        'class',
        'data-x',
      ),
      fc.oneof(
        fc.constantFrom(
          'javascript:alert(1)',
          ' JAVASCRIPT:x',
          'java\tscript:x',
          'data:text/html,x',
          'alert(1)',
          'x" onerror="alert(1)',
          '&#x6A;avascript:x',
          '#x',
          '/ok',
        ),
        fc.string({ maxLength: 8 }),
      ),
    );
    const element = fc
      .tuple(tag, fc.array(attribute, { maxLength: 3 }), fc.string({ maxLength: 10 }), fc.boolean())
      .map(
        ([name, attributes, text, closed]) =>
          `<${name}${attributes.map(([key, value]) => ` ${key}="${value.replaceAll('"', '&quot;')}"`).join('')}>${text}${closed ? `</${name}>` : ''}`,
      );
    const piece = fc.oneof(
      element,
      fc.constantFrom(...VECTORS),
      fc.constantFrom(
        '# Heading',
        '- list',
        '> quote',
        '`code`',
        '```\ncode\n```',
        '[^1]\n\n[^1]: note',
        'https://example.com',
        '**bold**',
        '| a |\n|---|\n| b |',
      ),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n\n', ' ', '\n'),
        (pieces, joiner) => {
          const { html: out, removedHtml } = convertMarkdown(pieces.join(joiner));
          expect(executable(out)).toEqual([]);
          expect(removedHtml.every(({ line }) => Number.isInteger(line) && line >= 1)).toBe(true);
        },
      ),
      {
        numRuns: 400,
        // Found by a run: elements the HTML parser makes up (a table in MathML text) have no start line.
        examples: [
          [
            [
              '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
              '[^1]\n\n[^1]: note',
              '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
            ],
            ' ',
          ],
        ],
      },
    );
  });
});

describe('built into pages', () => {
  let site: TempSite;
  let stderr = '';
  beforeAll(async () => {
    // The company's own site: its pages, its Content-Security-Policy.
    site = await copySite(repoRoot, ['dist', 'node_modules', '.cache', '.git', 'tests', 'screenshots', 'lib']);
    // Images are checked files (an `<img src=x>` fails the build as missing): covered above.
    const safeForABuild = VECTORS.filter((vector) => !vector.startsWith('![') && !vector.includes('<img'));
    await site.write(
      'content/news/vectors.md',
      `---\ntitle: Vectors\ndate: "2024-06-01"\n---\n${safeForABuild.join('\n\n')}\n`,
    );
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    stderr = result.stderr;
  }, 120_000);
  afterAll(() => site.dispose());

  it('no page carries script but the site’s own, and the CSP still needs no unsafe-inline', async () => {
    // The editor at /admin is Decap's page, not the site's, with a policy of its own (editor-build.test.ts).
    const pages = readdirSync(site.file('dist'), { recursive: true, encoding: 'utf8' }).filter(
      (name) => name.endsWith('.html') && !name.startsWith(`admin${path.sep}`),
    );
    expect(pages).toContain(path.join('news', 'vectors.html'));
    for (const file of pages)
      expect(pageProblems(readFileSync(site.file(path.join('dist', file)), 'utf8')), file).toEqual([]);
    // The article's body, stricter: no svg, math or form of its own either.
    const body = /<div class="prose">([\s\S]*?)<\/div><\/div><\/div><\/article>/.exec(
      await site.read('dist/news/vectors.html'),
    )?.[1];
    expect(body, 'the article body').toBeDefined();
    expect(executable(body!)).toEqual([]);
    expect(body).toContain('<p id="user-content-location" name="user-content-cookie">clobber</p>');
    const headers = await site.read('dist/_headers');
    const csp = /Content-Security-Policy: (.+)/.exec(headers)?.[1] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(stderr).toMatch(/content\/news\/vectors\.md:\d+: <script> and its content/);
  });
});
