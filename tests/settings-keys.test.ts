// Misspelt keys in settings: a data file's (checked by the site's zod schema) and defineSite's
// options. Each mistake is one error naming the key meant; a far key is named with what is known.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseDataFile } from '../src/content/data.ts';
import { lineOfProperty } from '../src/content/property-line.ts';
import { keysAt, nearestKey, takesAnyKeyAt } from '../src/content/schema-keys.ts';
import { SsgError, SsgErrorList } from '../src/errors/errors.ts';
import { checkSiteOptions, siteOptionsSchema } from '../src/render/site-options.ts';

const errorsOf = (run: () => unknown): SsgError[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof SsgErrorList) return [...error.errors];
    if (error instanceof SsgError) return [error];
    throw error;
  }
  return [];
};

/** One slip of the keyboard: a letter dropped, doubled, replaced or two swapped. */
const slipOf = (key: string) =>
  fc
    .tuple(fc.integer({ min: 0, max: key.length - 1 }), fc.constantFrom('drop', 'double', 'swap', 'replace'))
    .map(([at, how]) => {
      if (how === 'drop') return key.slice(0, at) + key.slice(at + 1);
      if (how === 'double') return key.slice(0, at + 1) + key.slice(at);
      if (how === 'swap' && at < key.length - 1) return key.slice(0, at) + key[at + 1] + key[at] + key.slice(at + 2);
      return key.slice(0, at) + (key[at] === 'q' ? 'z' : 'q') + key.slice(at + 1);
    });

describe('a data file with a misspelt key', () => {
  const schema = z.strictObject({
    brand: z.string(),
    email: z.email('must be an e-mail address'),
    description: z.string(),
    social: z.strictObject({ linkedin: z.string(), github: z.string() }),
  });
  const text = 'brand: B\nemail: a@b.at\ndescription: D\nsocial:\n  linkedin: l\n  github: g\n';
  const file = (body: string) => ({ name: 'site', file: 'content/site.yaml', text: body });

  it('is one error for each misspelt key, at its line, naming the key meant, whatever the slip', () => {
    for (const key of ['brand', 'email', 'description']) {
      fc.assert(
        fc.property(
          slipOf(key).filter((slip) => slip !== key && nearestKey(slip, keysAt(schema)) === key),
          (slip) => {
            const written = text.replace(new RegExp(`^${key}:`, 'm'), `${slip}:`);
            const errors = errorsOf(() => parseDataFile(file(written), schema));
            expect(errors.map((error) => [error.code, error.where, error.message])).toEqual([
              [
                'DataKeyUnknown',
                `content/site.yaml:${written.split('\n').findIndex((line) => line.startsWith(`${slip}:`)) + 1}`,
                `${slip} is not a key this file takes; did you mean ${key}?`,
              ],
            ]);
          },
        ),
      );
    }
  });

  it('below the top too, and keeps the errors of other fields', () => {
    const errors = errorsOf(() =>
      parseDataFile(file(text.replace('  github:', '  gihtub:').replace('email: a@b.at', 'email: nope')), schema),
    );
    expect(errors.map((error) => [error.code, error.where, error.message])).toEqual([
      ['DataSchemaMismatch', 'content/site.yaml:2', 'email: must be an e-mail address'],
      ['DataKeyUnknown', 'content/site.yaml:6', 'social.gihtub is not a key this file takes; did you mean github?'],
    ]);
  });

  it('under a schema that lets unknown keys pass, a required key missing beside its slip names the slip', () => {
    const loose = z.object({ name: z.string(), role: z.string() });
    const errors = errorsOf(() =>
      parseDataFile({ name: 'alice', file: 'content/team/alice.yaml', text: 'name: Alice\nrloe: Engineer\n' }, loose),
    );
    expect(errors.map((error) => [error.code, error.where, error.message])).toEqual([
      ['DataKeyUnknown', 'content/team/alice.yaml:2', 'rloe is not a key this file takes; did you mean role?'],
    ]);
  });

  it('far from every known key: named with the keys the schema takes, and the missing key said apart', () => {
    const errors = errorsOf(() => parseDataFile(file(text.replace('brand:', 'colour:')), schema));
    expect(errors.map((error) => [error.code, error.message])).toEqual([
      ['DataKeyUnknown', 'colour is not a key this file takes.'],
      ['DataSchemaMismatch', expect.stringMatching(/^brand: /)],
    ]);
    expect(errors[0]!.hint).toBe(
      'Remove colour, or correct it to one of the keys the schema takes: brand, email, description, social.',
    );
  });
});

describe("defineSite's options", () => {
  const route = { path: '/', page: () => null, head: () => ({ title: 'T' }) };
  const check = (site: object) =>
    errorsOf(() => checkSiteOptions(site, 'site/index.tsx', { root: '/', sites: () => undefined }));

  it('a site with every option passes', () => {
    expect(
      check({
        routes: [{ ...route, noindex: true, entries: () => [] }],
        collections: { news: { folder: 'news' }, team: { type: 'data', schema: z.object({}) } },
        layout: () => null,
        redirects: { '/a': '/', '/b': { destination: '/', status: 302 } },
        markdown: { remarkPlugins: [], allow: { tagNames: ['x'] }, reservedIds: ['main'] },
        editor: { backend: { repo: 'o/r', branch: 'main' }, labels: { articles: 'News' }, exclude: ['site'] },
        search: { indexed: ['/'], pages: ['/'], language: 'en' },
      }),
    ).toEqual([]);
  });

  it('a slip of any option, at any depth, names the option meant', () => {
    const paths: [string[], object][] = [
      [[], { routes: [route] }],
      [['markdown'], { routes: [route], markdown: {} }],
      [['search'], { routes: [route], search: { indexed: ['/'], pages: ['/'] } }],
      [['editor'], { routes: [route], editor: { backend: { repo: 'o/r' } } }],
      [['editor', 'backend'], { routes: [route], editor: { backend: { repo: 'o/r' } } }],
      [['routes', '0'], { routes: [route] }],
      [['collections', 'news'], { routes: [route], collections: { news: {} } }],
    ];
    for (const [at, base] of paths) {
      const known = keysAt(
        siteOptionsSchema,
        at.map((key) => (/^\d+$/.test(key) ? Number(key) : key)),
      );
      expect(known.length, at.join('.')).toBeGreaterThan(1);
      fc.assert(
        fc.property(
          fc.constantFrom(...known).chain((key) => slipOf(key).map((slip) => [key, slip] as const)),
          ([key, slip]) => {
            fc.pre(nearestKey(slip, known) === key && !known.includes(slip));
            const site = structuredClone({ ...base, routes: undefined });
            const withRoutes = { ...site, routes: [{ ...route }] } as Record<string, any>;
            let target = withRoutes;
            for (const step of at) target = target[step] as Record<string, any>;
            // A slip as near a key already written as to one missing names the missing one
            // (`pathh` beside a written `path` means `paths`); that choice has its own test.
            const absent = known.filter((name) => !(name in target));
            fc.pre((nearestKey(slip, absent) ?? key) === key);
            target[slip] = 1;
            const errors = check(withRoutes);
            // A key that is no identifier is written as a string in brackets (`["18n"]`).
            const written = /^[A-Za-z_$][\w$]*$/.test(slip) ? slip : `[${JSON.stringify(slip)}]`;
            const option = [...at.map((step) => (/^\d+$/.test(step) ? `[${step}]` : step)), written]
              .join('.')
              .replace(/\.\[/g, '[');
            expect(errors.map((error) => [error.code, error.message])).toContainEqual([
              'SiteOptionUnknown',
              `defineSite's ${option} is not an option, so it would be ignored; did you mean ${key}?`,
            ]);
            expect(errors.filter((error) => error.code === 'SiteOptionUnknown')).toHaveLength(1);
          },
        ),
        { numRuns: 40 },
      );
    }
  });

  it('a slip as near a key written as to one missing names the missing one', () => {
    const messages = check({ routes: [{ ...route, pathh: { de: '/x' } }] }).map((error) => error.message);
    expect(messages).toContain(
      "defineSite's routes[0].pathh is not an option, so it would be ignored; did you mean paths?",
    );
  });

  it('an option of another generator is refused, naming the options there are', () => {
    const [error, ...more] = check({ routes: [route], integrations: [] });
    expect(more).toEqual([]);
    expect([error!.code, error!.where, error!.message]).toEqual([
      'SiteOptionUnknown',
      'site/index.tsx',
      "defineSite's integrations is not an option, so it would be ignored.",
    ]);
    expect(error!.hint).toMatch(
      /^Remove integrations, or use one of routes, i18n, collections, .*search; docs\/reference\/define-site\.md/,
    );
  });

  it('a redirect written as an object with a misspelt key, and an option of the wrong kind', () => {
    const errors = check({ routes: [route], redirects: { '/a': { destinaton: '/' } }, layout: 'Layout' });
    expect(errors.map((error) => [error.code, error.message])).toEqual([
      [
        'SiteOptionUnknown',
        'defineSite\'s redirects["/a"].destinaton is not an option, so it would be ignored; did you mean destination?',
      ],
      ['SiteOptionInvalid', "defineSite's layout: must be a function"],
    ]);
  });
});

describe('the line of a property in the source', () => {
  const source = [
    'export default defineSite<Data>({', // 1
    '  // redirect: in a comment is not the key', // 2
    "  brand: 'a { b // c', pattern: /^\\d{4}-[{]$/, note: `x ${'}'} y`,", // 3
    '  routes: [', // 4
    "    { path: '/', page: Home, head: () => ({ title: 'T' }) },", // 5
    '    defineRoute({', // 6
    "      path: '/x',", // 7
    '      head: 42,', // 8
    '    }),', // 9
    '    ...more,', // 10
    '  ],', // 11
    "  'redirect': { '/old': '/' },", // 12
    '  editor,', // 13
    '});', // 14
  ].join('\n');

  it('follows keys and indexes, through calls, past comments, strings, templates and regular expressions', () => {
    expect(lineOfProperty(source, 1, ['redirect'])).toBe(12);
    expect(lineOfProperty(source, 1, ['routes', 1, 'head'])).toBe(8);
    expect(lineOfProperty(source, 1, ['routes', 0, 'head'])).toBe(5);
    expect(lineOfProperty(source, 1, ['routes', 1])).toBe(6);
    // As far as the source spells the path out: a spread, a variable.
    expect(lineOfProperty(source, 1, ['routes', 2, 'path'])).toBe(10);
    expect(lineOfProperty(source, 1, ['editor', 'backend', 'brnach'])).toBe(13);
    expect(lineOfProperty(source, 1, ['missing'])).toBe(1);
  });

  it('finds every key of any object literal written out, one property a line', () => {
    const key = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,6}$/);
    const tricky = fc.constantFrom(
      "'{'",
      '"}"',
      '`${"{"}`',
      '/[{]/g',
      '// }',
      '/* { */',
      "'//'",
      '1',
      'x => ({ a: 1 })',
    );
    type Tree = { [key: string]: Tree | string };
    const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
      tree: fc.dictionary(key, fc.oneof({ depthSize: 'small' }, tricky, tie('tree')), { minKeys: 1, maxKeys: 4 }),
    })).tree;
    fc.assert(
      fc.property(tree, (value) => {
        const lines = ['defineSite({'];
        const expected: [string[], number][] = [];
        const write = (object: Tree, at: string[]) => {
          for (const [name, inner] of Object.entries(object)) {
            if (typeof inner === 'string') {
              // A comment alone on its line closes with the line: the value goes below it.
              lines.push(inner.startsWith('//') ? `${name}: 0, ${inner}` : `${name}: ${inner},`);
              expected.push([[...at, name], lines.length]);
            } else {
              lines.push(`${name}: {`);
              expected.push([[...at, name], lines.length]);
              write(inner, [...at, name]);
              lines.push('},');
            }
          }
        };
        write(value, []);
        lines.push('})');
        const text = lines.join('\n');
        for (const [path, line] of expected) expect(lineOfProperty(text, 1, path), path.join('.')).toBe(line);
      }),
    );
  });
});

describe('the keys a schema declares, in each of its forms', () => {
  it('reads unions, intersections, pipes, brands, lazy and wrapped objects, of zod 4 and zod 3', async () => {
    const { z: z3 } = await import('zod/v3');
    const tag = z.object({ tag: z.string() });
    expect(keysAt(z.union([z.object({ kind: z.literal('a') }), tag]))).toEqual(['kind', 'tag']);
    expect(keysAt(tag.and(z.object({ x: z.string() })))).toEqual(['tag', 'x']);
    expect(keysAt(z.preprocess((value) => value, tag))).toEqual(['tag']);
    expect(keysAt(z.lazy(() => tag).optional())).toEqual(['tag']);
    expect(keysAt(tag.transform((value) => value).pipe(z.object({ tag: z.string() })))).toEqual(['tag']);
    expect(keysAt(z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), tag: z.string() })]))).toEqual([
      'kind',
      'tag',
    ]);
    expect(keysAt(z3.object({ tag: z3.string() }).brand<'X'>())).toEqual(['tag']);
    expect(keysAt(z3.object({ tag: z3.string() }).and(z3.object({ x: z3.string() })))).toEqual(['tag', 'x']);
    expect(
      keysAt(
        z3
          .object({ tag: z3.string() })
          .refine(() => true)
          .optional(),
      ),
    ).toEqual(['tag']);
    expect(takesAnyKeyAt(z.record(z.string(), z.unknown()))).toBe(true);
    expect(takesAnyKeyAt(tag)).toBe(false);
    expect(keysAt(z.object({ list: z.array(tag) }), ['list', 0])).toEqual(['tag']);
  });
});
