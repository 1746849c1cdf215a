// The site's own Markdown plugins, as Astro users configure them: defineSite({ markdown:
// { remarkPlugins, rehypePlugins, allow } }). remark-math with rehype-katex (MathML output: no
// script, no style attribute, under the site's CSP) end to end, in this process and in the helper
// processes; a changed setting converts everything again; a plugin that throws is named.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

// The element names and the `allow` lines as the guide gives them, so the guide's sample is what is built.
const guide = readFileSync(path.join(repoRoot, 'docs', 'markdown-plugins.md'), 'utf8');
const GUIDE_MATHML = /^const MATHML = \[.*\];$/m.exec(guide)![0];
const GUIDE_ALLOW = /^ {4}allow: \{\n([\s\S]*?)\n {4}\},$/m.exec(guide)![0].trim();

const MATH_SETTINGS = `
function remarkBoom() {
  return (_tree: unknown, file: { value: unknown }) => {
    if (String(file.value).includes('BOOM')) throw new Error('cannot handle BOOM');
  };
}

${GUIDE_MATHML}
const markdown = {
  remarkPlugins: [remarkMath, remarkBoom],
  rehypePlugins: [[rehypeKatex, { output: 'mathml' }]],
  ${GUIDE_ALLOW}
} as const;
`;

let site: TempSite;
beforeAll(async () => {
  site = await copySite(path.join(repoRoot, 'tests', 'fixtures', 'basic'));
  const file = site.file('site/index.tsx');
  const source = readFileSync(file, 'utf8');
  writeFileSync(
    file,
    `import remarkMath from 'remark-math';\nimport rehypeKatex from 'rehype-katex';\n${source.replace('export default defineSite({\n  layout: Layout,', `${MATH_SETTINGS}\nexport default defineSite({\n  layout: Layout,\n  markdown: markdown as never,`)}`,
  );
  await site.write(
    'content/news/math.md',
    '---\ntitle: Math\ndate: "2024-05-01"\n---\nEuler: $e^{i\\pi} + 1 = 0$.\n\n$$\n\\frac{a}{b}\n$$\n\n$$\n\\sum_{i=0}^{n} i\n$$\n',
  );
});
afterAll(() => site.dispose());

const mathOf = (html: string) =>
  /<span class="katex"><math xmlns="http:\/\/www\.w3\.org\/1998\/Math\/MathML"[^>]*>[\s\S]*?<\/math><\/span>/.exec(
    html,
  )?.[0];

describe("the site's Markdown plugins", () => {
  it('remark-math and rehype-katex turn $…$ into MathML, with no script or style attribute, and nothing about it is warned', async () => {
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/math\.md/);
    const page = await site.read('dist/news/math.html');
    const math = mathOf(page);
    expect(math).toContain('<msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi></mrow></msup>');
    expect(page).toContain('display="block"');
    expect(page).toMatch(/<munderover><mo[^>]*>∑<\/mo>/);
    expect(page).not.toMatch(/\sstyle=|<script(?![^>]*src=)/);
  });

  it('run in the helper processes alike, and come from the Markdown cache the next time', async () => {
    for (let n = 0; n < 70; n++)
      await site.write(
        `content/news/m-${n}.md`,
        `---\ntitle: M${n}\ndate: "2024-04-01"\n---\nValue $x_{${n}}$ here.\n`,
      );
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Markdown: 70 converted/);
    expect(mathOf(await site.read('dist/news/m-42.html'))).toContain('<msub><mi>x</mi><mn>42</mn></msub>');
    const again = await site.run(['build']);
    expect(again.stdout).toMatch(/Markdown: 0 converted/);
  }, 120_000);

  it('a changed plugin option converts every article again', async () => {
    const file = site.file('site/index.tsx');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace("{ output: 'mathml' }", "{ output: 'mathml', strict: false }"),
    );
    const result = await site.run(['build']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Markdown: 73 converted, 0 from cache/);
  }, 120_000);

  it('a plugin that throws fails the build naming the article and the plugin', async () => {
    await site.write('content/news/boom.md', '---\ntitle: Boom\ndate: "2024-05-02"\n---\nThis says BOOM.\n');
    const result = await site.run(['build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[MarkdownPluginFailed]');
    expect(result.stderr).toContain(
      'content/news/boom.md: The plugin remarkBoom (markdown.remarkPlugins[1]) failed: cannot handle BOOM',
    );
    expect(result.stderr).not.toContain('Unexpected internal error');
  }, 120_000);
});

describe("the site's reserved ids", () => {
  it('no heading takes one, converted here or in the helper processes (where they travel as data)', async () => {
    const other = await copySite(path.join(repoRoot, 'tests', 'fixtures', 'basic'));
    try {
      const file = other.file('site/index.tsx');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(
          'export default defineSite({\n  layout: Layout,',
          "export default defineSite({\n  layout: Layout,\n  markdown: { reservedIds: ['intro'] },",
        ),
      );
      for (const count of [1, 70]) {
        for (let n = 0; n < count; n++)
          await other.write(
            `content/news/r-${n}.md`,
            `---\ntitle: R${n}\ndate: "2024-04-01"\n---\n## Intro\n\nText ${count}.\n`,
          );
        const result = await other.run(['build']);
        expect(result.code, result.stderr).toBe(0);
        // The second build converts the 69 new ones: enough for the helper processes.
        expect(Number(/Markdown: (\d+) converted/.exec(result.stdout)?.[1])).toBeGreaterThanOrEqual(
          count === 1 ? 1 : 69,
        );
        expect(await other.read(`dist/news/r-${count - 1}.html`)).toMatch(/<h2 id="intro-1">Intro<a/);
      }
    } finally {
      await other.dispose();
    }
  }, 120_000);
});
