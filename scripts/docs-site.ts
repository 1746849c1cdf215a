// npm run docs [-- --out dist-docs --base-url https://docs.example.org]: the guides and reference
// of docs/ as a site built by ssg itself (docs-site/ holds its code). The pages are staged in
// .cache/docs-site/, a folder of this command's own (its .cache kept between runs): each gets a title (its first heading), a
// section and an order (as docs/index.md lists it); a link out of docs/ (to a script, say) leads
// to the file in the repository, whose address docs-site/content/site.yaml gives.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const docsDir = path.join(repoRoot, 'docs');
const staged = path.join(repoRoot, '.cache', 'docs-site');

/** Every Markdown page below docs/, relative to it, with forward slashes. */
function docPages(): string[] {
  return readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

/** The pages in the order docs/index.md links them; the others after. */
function orderOf(pages: readonly string[]): Map<string, number> {
  const index = readFileSync(path.join(docsDir, 'index.md'), 'utf8');
  const linked = [...index.matchAll(/\]\(([^)#\s]+\.md)/g)].map((match) => match[1]!);
  return new Map(pages.map((page) => [page, linked.includes(page) ? linked.indexOf(page) : linked.length]));
}

/** A link in a page that leaves docs/ for a file of the repository: the address of that file. */
function repositoryLinks(page: string, text: string, repository: string): string {
  return text.replace(/\]\((\.\.\/[^)#\s]+)(#[^)\s]*)?\)/g, (whole, target: string, fragment = '') => {
    const file = path.resolve(docsDir, path.dirname(page), target);
    const inRepo = path.relative(repoRoot, file);
    if (inRepo.startsWith('..') || file.startsWith(docsDir + path.sep) || !existsSync(file)) return whole;
    return `](${repository}${inRepo.split(path.sep).join('/')}${fragment})`;
  });
}

/** One page as the docs site's collection takes it: front matter added, its heading moved to the title. */
function stagedPage(page: string, order: number, repository: string): string {
  const text = readFileSync(path.join(docsDir, page), 'utf8');
  const heading = /^# (.+)$/m.exec(text);
  const title = heading ? heading[1]!.replace(/`/g, '') : page.replace(/\.md$/, '');
  const body = heading ? text.replace(heading[0], '') : text;
  const section = page.startsWith('reference/') ? 'Reference' : 'Guides';
  const front = [
    '---',
    `title: ${JSON.stringify(title)}`,
    'date: "2026-01-01"',
    `section: ${section}`,
    `order: ${order}`,
    '---',
  ].join('\n');
  return `${front}\n${repositoryLinks(page, body, repository)}`;
}

function main(): void {
  const { values } = parseArgs({
    options: { out: { type: 'string', default: 'dist-docs' }, 'base-url': { type: 'string' } },
  });
  const site = parse(readFileSync(path.join(repoRoot, 'docs-site', 'content', 'site.yaml'), 'utf8')) as {
    repository: string;
  };
  // Staged afresh but for its cache: the pages unchanged since the last run are not converted again.
  for (const part of ['site', 'templates', 'content'])
    rmSync(path.join(staged, part), { recursive: true, force: true });
  mkdirSync(staged, { recursive: true });
  // Links to files of the company site (its search box) are copied as the files they lead to.
  cpSync(path.join(repoRoot, 'docs-site'), staged, { recursive: true, dereference: true });
  const pages = docPages();
  const order = orderOf(pages);
  for (const page of pages) {
    const target = path.join(staged, 'content', 'docs', page);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, stagedPage(page, order.get(page)!, site.repository));
  }
  const out = path.resolve(repoRoot, values.out!);
  const args = ['build', '-C', staged, '--out', out, ...(values['base-url'] ? ['--base-url', values['base-url']] : [])];
  try {
    execFileSync(process.execPath, [path.join(repoRoot, 'bin', 'ssg.js'), ...args], { stdio: 'inherit' });
  } catch {
    process.exitCode = 1;
  }
}

main();
