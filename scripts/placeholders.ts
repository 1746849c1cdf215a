// npm run placeholders [-- DIR]: every field of the site's YAML data that still holds an example
// value, as `content/<file>.yaml:<line> → <field>: <value>`, the list the build's one-line warning
// counts. Exits 0 either way: it is a list to work through, not a check.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { exampleFields, type SiteData } from '../site/content.ts';

const root = path.resolve(process.argv[2] ?? '.');
const files = ['site', 'networks', 'team'] as const;
const docs = new Map<string, { doc: ReturnType<typeof parseDocument>; lines: LineCounter }>();
const data: Record<string, unknown> = {};
for (const name of files) {
  const lines = new LineCounter();
  const doc = parseDocument(await readFile(path.join(root, 'content', `${name}.yaml`), 'utf8'), { lineCounter: lines });
  docs.set(name, { doc, lines });
  data[name] = doc.toJS();
}

/** `[0].links.x` → `[0, 'links', 'x']`, the path `getIn` takes. */
const keysOf = (field: string) =>
  [...field.matchAll(/\[(\d+)\]|([^.[\]]+)/g)].map((match) => (match[1] === undefined ? match[2]! : Number(match[1])));

const fields = exampleFields(data as unknown as SiteData);
for (const entry of fields) {
  const [, file, field] = /^content\/(\w+)\.yaml → (.*)$/.exec(entry)!;
  const { doc, lines } = docs.get(file!)!;
  const node = doc.getIn(keysOf(field!), true) as { range?: [number, number]; value?: unknown } | undefined;
  const line = node?.range ? `:${lines.linePos(node.range[0]).line}` : '';
  process.stdout.write(`content/${file}.yaml${line} → ${field}: ${String(node?.value ?? '')}\n`);
}
process.stdout.write(
  fields.length === 0
    ? 'No field holds an example value.\n'
    : `${fields.length} fields hold example values. Replace them, or add "placeholders: allowed" to content/site.yaml for a site that keeps them.\n`,
);
