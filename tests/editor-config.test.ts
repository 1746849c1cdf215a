import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { READ_KEYS } from '../src/content/frontmatter-schema.ts';
import { articleFields, editorConfig, type EditorOptions } from '../src/editor/editor-config.ts';
import { editorCsp, editorFiles, editorHeaders } from '../src/editor/editor-files.ts';
import { fieldsOf, jsonSchemaOf, labelOf, type EditorField, type JsonSchema } from '../src/editor/schema-fields.ts';
import { projectAt } from '../src/project.ts';
import { headersFile } from '../src/render/site-files.ts';
import { headersFor, parseHeadersFile } from '../src/server/headers-file.ts';
import { schemas } from '../site/content.ts';

/** The fields of a zod object schema, and the warnings the mapping gave. */
function fieldsOfZod(schema: z.ZodType) {
  const warnings: string[] = [];
  const fields = fieldsOf(jsonSchemaOf(schema)!, '', (at, why) => warnings.push(`${at}: ${why}`));
  return { fields, warnings };
}

const byName = (fields: EditorField[], name: string) => fields.find((field) => field.name === name)!;

const project = projectAt('/srv/site');
const options: EditorOptions = { backend: { repo: 'owner/site', oauthProxy: 'https://auth.example.org' } };

describe('schema to editor fields', () => {
  it('maps string, number, boolean, enum, array, object, optional and date to widgets', () => {
    const { fields, warnings } = fieldsOfZod(
      z.strictObject({
        name: z.string().min(1),
        count: z.number().int().min(0),
        ratio: z.number(),
        live: z.boolean(),
        status: z.enum(['Active', 'Exploring']),
        tags: z.array(z.string()),
        links: z.array(z.strictObject({ label: z.string(), href: z.string().regex(/^\//) })).min(1),
        cta: z.strictObject({ label: z.string().min(1), href: z.string() }).optional(),
        day: z.iso.date(),
        note: z.string().optional(),
      }),
    );
    expect(warnings).toEqual([]);
    expect(fields.map((field) => [field.name, field.widget])).toEqual([
      ['name', 'string'],
      ['count', 'number'],
      ['ratio', 'number'],
      ['live', 'boolean'],
      ['status', 'select'],
      ['tags', 'list'],
      ['links', 'list'],
      ['cta', 'object'],
      ['day', 'datetime'],
      ['note', 'string'],
    ]);
    expect(byName(fields, 'count')).toMatchObject({ value_type: 'int', min: 0, required: true });
    expect(byName(fields, 'status').options).toEqual(['Active', 'Exploring']);
    expect(byName(fields, 'tags').field).toMatchObject({ widget: 'string' });
    expect(byName(fields, 'links')).toMatchObject({ min: 1, summary: '{{fields.label}}' });
    expect(byName(fields, 'note').required).toBe(false);
    // An absent optional object must not hold up a save with its own required fields.
    expect(byName(fields, 'cta')).toMatchObject({ required: false });
    expect((byName(fields, 'cta').fields as EditorField[]).every((field) => field.required === false)).toBe(true);
    expect(byName(fields, 'links').fields as EditorField[]).toContainEqual(
      expect.objectContaining({ name: 'href', pattern: ['^\\/', expect.any(String)] }),
    );
  });

  it('names each field the editor cannot express, and leaves it out', () => {
    const { fields, warnings } = fieldsOfZod(
      z.object({
        when: z.date(),
        either: z.union([z.string(), z.number()]),
        nested: z.object({ map: z.record(z.string(), z.string()) }),
        kept: z.string(),
      }),
    );
    expect(fields.map((field) => field.name)).toEqual(['nested', 'kept']);
    expect(warnings).toEqual([
      expect.stringMatching(/^when: .*JSON Schema/),
      expect.stringMatching(/^either: .*several types/),
      expect.stringMatching(/^nested\.map: .*map of any keys/),
    ]);
  });

  it('gives every field of an arbitrary object schema, by name, with its widget and whether it is required', () => {
    const leaf = fc.constantFrom(
      { zod: z.string(), widget: 'string' },
      { zod: z.number(), widget: 'number' },
      { zod: z.boolean(), widget: 'boolean' },
      { zod: z.enum(['a', 'b']), widget: 'select' },
      { zod: z.array(z.string()), widget: 'list' },
    );
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/);
    fc.assert(
      fc.property(fc.dictionary(name, fc.record({ leaf, optional: fc.boolean() }), { maxKeys: 8 }), (shape) => {
        const zodShape = Object.fromEntries(
          Object.entries(shape).map(([key, { leaf, optional }]) => [key, optional ? leaf.zod.optional() : leaf.zod]),
        );
        const { fields, warnings } = fieldsOfZod(z.object(zodShape));
        expect(warnings).toEqual([]);
        expect(fields.map((field) => field.name)).toEqual(Object.keys(shape));
        for (const field of fields) {
          expect(field.widget).toBe(shape[field.name]!.leaf.widget);
          expect(field.required).toBe(!shape[field.name]!.optional);
          expect(field.label.length).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('labels a name in words, starting with a capital', () => {
    expect(labelOf('copyItems')).toBe('Copy items');
    expect(labelOf('noteTitle')).toBe('Note title');
    expect(labelOf('redirect_from')).toBe('Redirect from');
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][A-Za-z0-9_-]{0,20}$/), (name) => {
        const label = labelOf(name);
        expect(label.charAt(0)).toBe(label.charAt(0).toUpperCase());
        expect(label.replace(/\s/g, '').toLowerCase()).toBe(name.replace(/[_-]/g, '').toLowerCase());
      }),
    );
  });
});

const news = { name: 'news', dir: path.join(project.root, 'content', 'news') };

describe('the editor configuration', () => {
  const dataFiles = Object.entries(schemas).map(([name, schema]) => ({
    name,
    file: path.join('content', `${name}.yaml`),
    schema,
  }));
  const config = editorConfig(project, options, dataFiles, {
    baseUrl: 'https://example.org',
    warn: () => {},
    collections: [news],
  });
  const collections = config.collections as Array<Record<string, any>>;

  it("edits each locale's articles as a collection of its own, each language named in itself", () => {
    const made = editorConfig(project, options, [], {
      baseUrl: 'https://example.org',
      warn: () => {},
      collections: [{ ...news, i18n: { locales: ['en', 'de', 'fr'], defaultLocale: 'en' }, mdxIn: (l) => l === 'fr' }],
    });
    const listed = (made.collections as Array<Record<string, any>>).map((one) => [one.name, one.label, one.folder]);
    expect(listed).toEqual([
      ['news', 'News (English)', 'content/news'],
      ['news-de', 'News (Deutsch)', 'content/news/de'],
      ['news-fr', 'News (français)', 'content/news/fr'],
      ['news-fr-mdx', 'News (français) (MDX)', 'content/news/fr'],
    ]);
    const german = (made.collections as Array<Record<string, any>>)[1]!;
    // A collection of the site's own with the name a locale's is listed under is refused, named.
    expect(() =>
      editorConfig(project, options, [], {
        baseUrl: 'https://example.org',
        warn: () => {},
        collections: [
          { ...news, i18n: { locales: ['en', 'de'], defaultLocale: 'en' } },
          { name: 'news-de', dir: path.join(project.root, 'content', 'news-de') },
        ],
      }),
    ).toThrow('The editor would list two collections as "news-de"');
    expect(german.format).toBe('ssg-article-news-de');
    expect(german.fields.map((field: EditorField) => field.name)).toContain('translationKey');
  });

  it('shows every front-matter key the generator reads, then the body', () => {
    expect(articleFields().map((field) => field.name)).toEqual([
      ...READ_KEYS.filter((key) => key !== 'translationKey'),
      'body',
    ]);
    // The translation key only on a site in several languages.
    expect(articleFields({ i18n: true }).map((field) => field.name)).toEqual([...READ_KEYS, 'body']);
    // Jekyll's spelling of aliases is kept on save, not offered to staff beside aliases.
    expect(articleFields().find((field) => field.name === 'redirect_from')).toMatchObject({ widget: 'hidden' });
    expect(articleFields().find((field) => field.name === 'aliases')).toMatchObject({ widget: 'list' });
    expect(articleFields().find((field) => field.name === 'date')).toMatchObject({
      widget: 'datetime',
      format: 'YYYY-MM-DD',
    });
  });

  it('writes articles as page bundles named by their slug, their images beside them', () => {
    expect(collections[0]).toMatchObject({
      name: 'news',
      folder: 'content/news',
      path: '{{slug}}/index',
      slug: '{{slug}}',
      media_folder: '',
      public_folder: '',
      extension: 'md',
    });
    expect(config.slug).toMatchObject({ encoding: 'ascii', clean_accents: true, sanitize_replacement: '-' });
  });

  it('edits each data file from its schema, a list at the root under its own format', () => {
    const networks = collections.find((collection) => collection.name === 'data-networks')!;
    expect(networks.format).toBe('ssg-yaml-list-networks');
    expect(networks.files[0].file).toBe('content/networks.yaml');
    const list = networks.files[0].fields[0];
    expect(list).toMatchObject({ name: 'items', widget: 'list', required: true, min: 1 });
    expect(list.fields.map((field: EditorField) => field.name)).toEqual(Object.keys(schemas.networks.element.shape));
    const site = collections.find((collection) => collection.name === 'data-site')!;
    expect(site.format).toBe('ssg-yaml-map-site');
  });

  it('shows a field the schema adds without a second file to edit', () => {
    const extended = { ...schemas, team: z.array(schemas.team.element.extend({ since: z.number().int() })) };
    const files = Object.entries(extended).map(([name, schema]) => ({ name, file: `content/${name}.yaml`, schema }));
    const made = editorConfig(project, options, files, {
      baseUrl: 'https://example.org',
      warn: () => {},
      collections: [news],
    });
    const team = (made.collections as Array<Record<string, any>>).find((c) => c.name === 'data-team')!;
    expect(team.files[0].fields[0].fields).toContainEqual(expect.objectContaining({ name: 'since', widget: 'number' }));
  });

  it('lists MDX articles in a collection of their own, their front matter editable and their body kept as it is', () => {
    const made = editorConfig(project, options, dataFiles, {
      baseUrl: 'https://example.org',
      warn: () => {},
      collections: [{ ...news, mdx: true }],
    });
    const [markdown, mdx, ...rest] = made.collections as Array<Record<string, any>>;
    // Decap lists the files of one extension a folder collection: `.mdx` files need a second one.
    expect(markdown).toMatchObject({ name: 'news', extension: 'md', create: true });
    expect(mdx).toMatchObject({
      name: 'news-mdx',
      label: 'News (MDX)',
      folder: 'content/news',
      path: '{{slug}}/index',
      extension: 'mdx',
      format: 'ssg-article-news-mdx',
      create: false,
      delete: false,
      media_folder: '',
      identifier_field: 'title',
    });
    expect(mdx!.description).toMatch(/MDX.*code/);
    // The same fields as a Markdown article's, but the body (code: Decap's Markdown editor would
    // rewrite its imports, tags and expressions) is a hidden field, written back as it was read.
    expect(mdx!.fields.map((field: EditorField) => field.name)).toEqual(
      markdown!.fields.map((field: EditorField) => field.name),
    );
    expect(mdx!.fields.at(-1)).toEqual({ name: 'body', label: 'Body', widget: 'hidden', required: false });
    expect(mdx!.fields.slice(0, -1)).toEqual(markdown!.fields.slice(0, -1));
    expect(rest.map((collection) => collection.name)).toEqual(collections.slice(1).map((c) => c.name));
    // Without MDX articles there is no empty list.
    expect(collections.map((collection) => collection.name)).not.toContain('news-mdx');
  });

  it('lists the MDX collection once the folder holds an .mdx article, as <slug>.mdx or <slug>/index.mdx', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'ssg-editor-mdx-'));
    try {
      const dir = path.join(root, 'content', 'news');
      await mkdir(path.join(dir, 'bundle'), { recursive: true });
      await writeFile(path.join(dir, 'plain.md'), '---\ntitle: Plain\n---\nText.\n');
      const names = () => {
        const files = editorFiles(projectAt(root), options, [], {
          baseUrl: 'https://example.org',
          name: 'Example',
          warn: () => {},
          collections: [{ name: 'news', dir }],
        });
        const config = JSON.parse(String(files.find((file) => file.path === 'admin/config.json')!.contents));
        return (config.collections as Array<{ name: string }>).map((collection) => collection.name);
      };
      expect(names()).toEqual(['news']);
      await writeFile(path.join(dir, 'bundle', 'index.mdx'), '---\ntitle: In MDX\n---\n<Note>Hi</Note>\n');
      expect(names()).toEqual(['news', 'news-mdx']);
      await rm(path.join(dir, 'bundle', 'index.mdx'));
      await writeFile(path.join(dir, 'flat.mdx'), '---\ntitle: Flat\n---\n{1 + 1}\n');
      expect(names()).toEqual(['news', 'news-mdx']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('saves through GitHub and the OAuth proxy in the built configuration, never a local backend', () => {
    expect(config.backend).toEqual({
      name: 'github',
      repo: 'owner/site',
      branch: 'main',
      base_url: 'https://auth.example.org',
    });
    expect(config).not.toHaveProperty('local_backend');
  });
});

describe("the editor's headers", () => {
  const site = {
    'Content-Security-Policy': "default-src 'self'; script-src 'self'",
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
  const editor = editorHeaders(site, ['https://api.github.com']);

  it("replace the pages' policy on /admin only, and keep the rest of the site's", () => {
    const rules = parseHeadersFile(headersFile(site, [{ path: '/admin', headers: editor }]));
    expect(headersFor(rules, '/about')).toEqual(site);
    expect(headersFor(rules, '/admin/')).toEqual(editor);
    expect(headersFor(rules, '/admin/decap-cms.js')).toEqual(editor);
    expect(editor['X-Frame-Options']).toBe('DENY');
    expect(editor['X-Robots-Tag']).toMatch(/noindex/);
  });

  it('allow what the editor needs and nothing of a CDN', () => {
    const csp = editorCsp(['https://api.github.com', 'https://auth.example.org']);
    expect(csp).toMatch(/script-src 'self' 'unsafe-eval';/);
    expect(csp).toMatch(/connect-src 'self' blob: https:\/\/api\.github\.com https:\/\/auth\.example\.org;/);
    expect(csp).not.toMatch(/unpkg|jsdelivr|cdn/);
  });
});
