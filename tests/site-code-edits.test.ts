// What a build with .cache kept does again after an edit to the site's code: a drawn file (a share
// card) is drawn again only when the module of its drawer or one that module imports changed, and
// an article is converted again only when a module of the site's Markdown plugins did; an edit to
// any other page or component redraws and reconverts nothing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

/** The site's code besides the fixture's: a drawer that notes each file it draws, a plugin, a page. */
const modules: Record<string, string> = {
  'site/card.ts': 'export const cardText = (title: string) => `card: ${title}`;',
  'site/share.ts': [
    "import { appendFileSync } from 'node:fs';",
    "import path from 'node:path';",
    "import { cardText } from './card.ts';",
    'export const drawers = {',
    '  card: (input: { title: string }, { root }: { root: string }) => {',
    "    appendFileSync(path.join(root, 'drawn.log'), `${input.title}\\n`);",
    '    return new TextEncoder().encode(cardText(input.title));',
    '  },',
    '};',
  ].join('\n'),
  'site/markdown.ts': [
    "import { marker } from './marker.ts';",
    'export function remarkMarker() {',
    "  return (tree: { children: unknown[] }) => void tree.children.push({ type: 'paragraph', children: [{ type: 'text', value: marker }] });",
    '}',
  ].join('\n'),
  'site/marker.ts': "export const marker = 'Marked.';",
  'site/legal.tsx': 'export const Legal = () => <h1>Terms</h1>;',
};

/** The fixture's definition with the modules above: a card per article, the plugin, the legal page. */
function withModules(source: string): string {
  const imports = [
    "import { drawers } from './share.ts';",
    "import { remarkMarker } from './markdown.ts';",
    "import { Legal } from './legal.tsx';",
  ].join('\n');
  const options = [
    'drawers,',
    "files: ({ articles }) => articles.map((article) => ({ path: `/cards/${article.slug}.txt`, key: article.title, draw: { drawer: 'card', input: { title: article.title } } })),",
    'markdown: { remarkPlugins: [remarkMarker] },',
  ].join('\n  ');
  return `${imports}\n${source}`
    .replace('export default defineSite({', `export default defineSite({\n  ${options}`)
    .replace(
      "    { path: '/404',",
      "    { path: '/legal', page: Legal, head: () => ({ title: 'Legal' }) },\n    { path: '/404',",
    );
}

describe('a rebuild after an edit to the site code, with .cache kept', () => {
  let site: TempSite;
  const drawn = () => readFileSync(site.file('drawn.log'), 'utf8').split('\n').filter(Boolean).sort();
  // By the CLI, as a user builds: in this test runner's own process the site's module would be
  // loaded through its transform, whose code the bundle does not hold (every file is then keyed by
  // the whole site's code).
  const rebuild = async () => {
    const run = await site.run(['build']);
    expect(run.code, run.stderr).toBe(0);
    const [, converted, cached] = /Markdown: (\d+) converted, (\d+) from cache/.exec(run.stdout) ?? [];
    return { markdown: { cached: Number(cached), converted: Number(converted) } };
  };

  beforeAll(async () => {
    site = await copySite(fixture);
    for (const [file, text] of Object.entries(modules)) await site.write(file, text);
    await site.write('site/index.tsx', withModules(readFileSync(site.file('site/index.tsx'), 'utf8')));
    const first = await rebuild();
    expect(first.markdown.converted).toBe(2);
  }, 120_000);
  afterAll(() => site?.dispose());

  it('draws and converts nothing again after an edit to a page neither the drawer nor a plugin imports', async () => {
    expect(drawn()).toEqual(['First post', 'Second post']);
    await site.write('site/legal.tsx', 'export const Legal = () => <h1>Terms, revised</h1>;');
    const result = await rebuild();
    expect(readFileSync(site.file('dist/legal.html'), 'utf8')).toContain('Terms, revised');
    expect(drawn()).toEqual(['First post', 'Second post']);
    expect(result.markdown).toEqual({ cached: 2, converted: 0 });
    expect(readFileSync(site.file('dist/news/first-post.html'), 'utf8')).toContain('<p>Marked.</p>');
  });

  it("draws every card again after an edit to a module the drawer imports, and converts again after one to a plugin's", async () => {
    await site.write('site/card.ts', 'export const cardText = (title: string) => `Card: ${title}`;');
    let result = await rebuild();
    expect(drawn()).toEqual(['First post', 'First post', 'Second post', 'Second post']);
    expect(readFileSync(site.file('dist/cards/first-post.txt'), 'utf8')).toBe('Card: First post');
    expect(result.markdown.converted).toBe(0);
    const drawer = await site.read('site/share.ts');
    await site.write('site/share.ts', drawer.replace('cardText(input.title)', 'cardText(input.title.trim())'));
    await rebuild();
    expect(drawn()).toHaveLength(6);
    await site.write('site/marker.ts', "export const marker = 'Marked again.';");
    result = await rebuild();
    expect(result.markdown).toEqual({ cached: 0, converted: 2 });
    expect(readFileSync(site.file('dist/news/first-post.html'), 'utf8')).toContain('<p>Marked again.</p>');
    expect(drawn()).toHaveLength(6);
  });
});
