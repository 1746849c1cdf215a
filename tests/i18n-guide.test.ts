// The locales guide, followed as a newcomer would: the starter (what `ssg init` writes), its
// site/index.tsx and the content files the guide shows put in place as written there, built.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hreflangLinks } from './helpers/hreflang.ts';
import { copySite, repoRoot, type TempSite } from './helpers/project.ts';

const guide = readFileSync(path.join(repoRoot, 'docs', 'i18n.md'), 'utf8');

/** The guide's whole files: a `// site/…` sample, and each fence titled with its path. */
function filesOfGuide(): Map<string, string> {
  const files = new Map<string, string>();
  for (const [, file, code] of guide.matchAll(/^```tsx\n\/\/ (site\/[\w./-]+)\n([\s\S]*?)^```$/gm))
    files.set(file!, code!);
  for (const [, file, text] of guide.matchAll(/^```\w+ title="([^"]+)"\n([\s\S]*?)^```$/gm)) files.set(file!, text!);
  return files;
}

describe('the locales guide, followed from the starter', () => {
  let site: TempSite;
  let stderr = '';
  const page = (file: string) => readFileSync(site.file(`dist/${file}`), 'utf8');
  const hreflang = hreflangLinks;

  beforeAll(async () => {
    site = await copySite(path.join(repoRoot, 'starter'));
    for (const [file, text] of filesOfGuide()) await site.write(file, text);
    const result = await site.run(['build']);
    stderr = result.stderr;
    expect(result.code, result.stderr).toBe(0);
  }, 120_000);
  afterAll(() => site?.dispose());

  it('shows a site file and a strings file per locale', () => {
    expect([...filesOfGuide().keys()].sort()).toEqual([
      'content/news/de/hello-world.md',
      'content/news/fr/bonjour.md',
      'content/strings/de.yaml',
      'content/strings/en.yaml',
      'content/strings/fr.yaml',
      'site/index.tsx',
    ]);
  });

  it('builds each page in three languages, in their words, with no warning', () => {
    expect(page('index.html')).toMatch(/<html lang="en">[\s\S]*<h1>Welcome<\/h1>[\s\S]*1 article</);
    expect(page('de.html')).toMatch(/<html lang="de">[\s\S]*<h1>Willkommen<\/h1>[\s\S]*1 Artikel/);
    expect(page('fr.html')).toMatch(/<html lang="fr">[\s\S]*<h1>Bienvenue<\/h1>/);
    expect(page('fr/404.html')).toContain('<h1>Page introuvable</h1>');
    expect(stderr).not.toMatch(/warning/i);
  });

  it('links each article to its translations, and writes the German one in German', () => {
    const links = [
      'en https://example.com/news/hello-world',
      'de https://example.com/de/nachrichten/hello-world',
      'fr https://example.com/fr/news/bonjour',
      'x-default https://example.com/news/hello-world',
    ];
    expect(hreflang(page('news/hello-world.html'))).toEqual(links);
    expect(hreflang(page('fr/news/bonjour.html'))).toEqual(links);
    const german = page('de/nachrichten/hello-world.html');
    expect(german).toContain('<time dateTime="2026-01-15">15. Januar 2026</time>');
    expect(german).toContain('>Fußnoten</h2>');
    expect(german).toContain('<a href="/fr/news/bonjour" hrefLang="fr" lang="fr">FR</a>');
  });

  it('writes a feed per locale', () => {
    expect(page('de/news/feed.xml')).toContain('<link>https://example.com/de/nachrichten/hello-world</link>');
    expect(page('fr/news/feed.xml')).toContain('<language>fr</language>');
  });
});
