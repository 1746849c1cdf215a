import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServer, type ServerBundle } from '../src/bundle/bundle-server.ts';
import { codeStampOf } from '../src/bundle/module-code.ts';
import { projectAt, type Project } from '../src/project.ts';

// A site whose drawer lives in share.tsx (importing card.tsx), beside a page of its own.
const files: Record<string, string> = {
  'site/index.tsx': [
    "import { defineSite } from 'ssg';",
    "import { Legal } from './pages/legal.tsx';",
    "import { drawers, plugin } from './share.tsx';",
    "export default defineSite({ routes: [{ path: '/legal', page: Legal, head: () => ({ title: 'Legal' }) }], drawers, markdown: { remarkPlugins: [plugin] } });",
  ].join('\n'),
  'site/pages/legal.tsx': 'export const Legal = () => <p>Terms</p>;',
  'site/share.tsx': [
    "import { cardText } from './card.tsx';",
    'export const drawers = { card: (input: { title: string }) => new TextEncoder().encode(cardText(input.title)) };',
    'export function plugin() { return () => {}; }',
  ].join('\n'),
  'site/card.tsx': 'export const cardText = (title: string) => `card: ${title}`;',
};

describe('codeStampOf: what a function of the site bundle depends on', () => {
  let root: string;
  let project: Project;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'ssg-module-code-'));
    project = projectAt(root);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  async function stamps(edits: Record<string, string> = {}) {
    for (const [file, text] of Object.entries({ ...files, ...edits })) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
    const bundle: ServerBundle = await bundleServer(project);
    const site = bundle.module.site as unknown as {
      drawers: { card: () => Uint8Array };
      markdown: { remarkPlugins: Array<() => unknown> };
    };
    return {
      drawer: codeStampOf(bundle, site.drawers.card),
      plugin: codeStampOf(bundle, site.markdown.remarkPlugins[0]!),
      layout: codeStampOf(bundle, site.constructor as () => unknown),
    };
  }

  it('stays the same after an edit to a page the drawer does not import, and changes with its module or one it imports', async () => {
    const before = await stamps();
    expect(before.drawer).toMatch(/^[0-9a-f]{64}$/);
    expect(before.layout).toBeUndefined(); // a function the bundle does not hold: the caller keys it otherwise
    const pageEdited = await stamps({ 'site/pages/legal.tsx': 'export const Legal = () => <p>Terms, revised</p>;' });
    expect(pageEdited.drawer).toBe(before.drawer);
    expect(pageEdited.plugin).toBe(before.plugin);
    const cardEdited = await stamps({
      'site/card.tsx': 'export const cardText = (title: string) => `Card: ${title}`;',
    });
    expect(cardEdited.drawer).not.toBe(before.drawer);
    expect(cardEdited.plugin).not.toBe(before.plugin); // the plugin's module imports the card too
    const drawerEdited = await stamps({
      'site/share.tsx': files['site/share.tsx']!.replace('new TextEncoder()', 'new globalThis.TextEncoder()'),
    });
    expect(drawerEdited.drawer).not.toBe(before.drawer);
  });

  it("is not misled by a module's line written inside a string: the code after it stays its own module's", async () => {
    // esbuild writes `// site/pages/legal.tsx` before that module's code; a template literal can
    // hold the same line, and the card's code after it must not be taken for the page's.
    const card = (word: string) =>
      `export const sample = \`\n// site/pages/legal.tsx\n\`;\nexport const cardText = (title: string) => \`${word}: \${title}\` + sample.length;`;
    const before = await stamps({ 'site/card.tsx': card('card') });
    expect(before.drawer).toMatch(/^[0-9a-f]{64}$/);
    const after = await stamps({ 'site/card.tsx': card('Card') });
    expect(after.drawer).not.toBe(before.drawer);
    const pageEdited = await stamps({
      'site/card.tsx': card('Card'),
      'site/pages/legal.tsx': 'export const Legal = () => <p>Terms, revised again</p>;',
    });
    expect(pageEdited.drawer).toBe(after.drawer);
  });
});
