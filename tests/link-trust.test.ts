// The link check of a build with .cache kept: a page exactly as the last build made it, whose links
// passed then, is not looked at again while every file its links could lead to is still there and
// the pages its fragments point at are as they were. Everything that could make one of its links
// fail now is caught all the same.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';
import path from 'node:path';

const fixture = path.join(repoRoot, 'tests', 'fixtures', 'basic');

const article = (title: string, body: string) => `---\ntitle: ${title}\ndate: "2024-05-01"\n---\n${body}\n`;

describe('links of pages kept from the last build', () => {
  let site: TempSite;
  const build = () => site.run(['build']);

  beforeAll(async () => {
    site = await copySite(fixture);
  }, 60_000);
  afterAll(() => site.dispose());

  it('still fail when the page they lead to goes, or the heading their fragment names', async () => {
    await site.write(
      'content/news/target.md',
      article('Target', '## Kept heading\n\nText.\n\n## Second heading\n\nMore.'),
    );
    await site.write(
      'content/news/linker.md',
      article('Linker', 'See [the target](/news/target) and [its second part](/news/target#second-heading).'),
    );
    const first = await build();
    expect(first.code, first.stderr).toBe(0);

    // The linking page is kept as it was; the page its fragment points at is rendered again without the heading.
    await site.write('content/news/target.md', article('Target', '## Kept heading\n\nText.'));
    const fragment = await build();
    expect(fragment.code).toBe(1);
    expect(fragment.stderr).toContain('LinkFragmentMissing');
    expect(fragment.stderr).toContain('#second-heading');

    // The heading back: passes; then the page itself goes.
    await site.write(
      'content/news/target.md',
      article('Target', '## Kept heading\n\nText.\n\n## Second heading\n\nMore.'),
    );
    expect((await build()).code).toBe(0);
    await site.remove('content/news/target.md');
    const gone = await build();
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('LinkBroken');
    expect(gone.stderr).toContain('/news/target');
    await site.write(
      'content/news/target.md',
      article('Target', '## Kept heading\n\nText.\n\n## Second heading\n\nMore.'),
    );
    expect((await build()).code).toBe(0);
  }, 120_000);

  it('say the warning about a link with a slash after a page on every build, not only on the one that rendered it', async () => {
    await site.write('content/news/slashed.md', article('Slashed', 'See [the first post](/news/first-post/).'));
    const first = await build();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('write /news/first-post');
    // Another article changes: the page with the slashed link is kept from the cache, and warns again.
    await site.write('content/news/other.md', article('Other', 'Plain text.'));
    const second = await build();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).not.toContain('nothing written');
    expect(second.stderr).toContain('write /news/first-post');
  }, 120_000);

  it('property: after random removals and restorations of linked articles, a build fails exactly when a cold build fails', async () => {
    const names = ['a', 'b', 'c'];
    // Each article links to the next one's page and to a heading on it.
    const source = (name: string, index: number) => {
      const next = names[(index + 1) % names.length]!;
      return article(
        `Article ${name}`,
        `## Part ${name}\n\nSee [${next}](/news/${next}) and [its part](/news/${next}#part-${next}).`,
      );
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ name: fc.constantFrom(...names), present: fc.boolean(), heading: fc.boolean() }), {
          minLength: 1,
          maxLength: 4,
        }),
        async (steps) => {
          for (const [index, name] of names.entries()) await site.write(`content/news/${name}.md`, source(name, index));
          expect((await build()).code).toBe(0);
          for (const step of steps) {
            const index = names.indexOf(step.name);
            if (!step.present) await site.remove(`content/news/${step.name}.md`);
            else
              await site.write(
                `content/news/${step.name}.md`,
                step.heading
                  ? source(step.name, index)
                  : source(step.name, index).replace(`## Part ${step.name}`, '## Renamed'),
              );
            const kept = await build();
            const cold = await copySite(site.dir, ['dist', 'node_modules', '.cache']);
            try {
              const fresh = await cold.run(['build']);
              expect(kept.code, `${JSON.stringify(steps)}\nkept: ${kept.stderr}\ncold: ${fresh.stderr}`).toBe(
                fresh.code,
              );
              const errors = (text: string) => [...text.matchAll(/\[(Link\w+)\]/g)].map((match) => match[1]).sort();
              expect(errors(kept.stderr)).toEqual(errors(fresh.stderr));
            } finally {
              await cold.dispose();
            }
          }
        },
      ),
      { numRuns: 5 },
    );
  }, 600_000);
});
