// The company site in German (issue 54): every page at /de/… says it is German, has no English
// chrome, names its English page and is named by it, and the news has a German feed and article.
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TempSite } from './helpers/project.ts';
import { sharedRealSite } from './helpers/site.ts';
import { hreflangLinks } from './helpers/hreflang.ts';

const BASE = 'https://validators.example';

/** Each German page and its English one. */
const pairs: Record<string, string> = {
  '/de': '/',
  '/de/about': '/about',
  '/de/services': '/services',
  '/de/networks': '/networks',
  '/de/contact': '/contact',
  '/de/contact/no-script': '/contact/no-script',
  '/de/news': '/news',
  '/de/news/hello-world': '/news/hello-world',
  '/de/legal': '/legal',
  '/de/news/404': '/news/404',
  '/de/404': '/404',
};
const fileOf = (route: string) => (route === '/' ? 'index.html' : `${route.slice(1)}.html`);

/** Words of the English chrome that no German page may show. */
const ENGLISH_CHROME = [
  'Home',
  'About',
  'Services',
  'Contact',
  'News',
  'Read more',
  'min read',
  'Not found',
  'Language',
  'Legal',
  'Menu',
  'Skip to content',
  'Copy',
  'Tags',
  'Updated',
  'Newsroom',
  'Send message',
  'Search',
  'opens in a new tab',
  'Page',
];

let site: TempSite;
const pages = new Map<string, string>();
const read = (route: string) => pages.get(route)!;

/**
 * What a reader sees or hears of the page: its text (scripts and island props left out) and the
 * attributes read out or shown (aria-label, title, alt, placeholder). The `#` after each heading
 * of an article is left out: its label is the generator's, in English (see the report of issue 54).
 */
function shown(html: string): string {
  const body = html
    .slice(html.indexOf('<body'))
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<a class="heading-anchor"[^>]*>#<\/a>/g, '');
  const attributes = [...body.matchAll(/\s(?:aria-label|title|alt|placeholder)="([^"]*)"/g)].map((m) => m[1]);
  return [body.replace(/<[^>]+>/g, ' '), ...attributes].join(' ').replace(/&amp;/g, '&').replace(/\s+/g, ' ');
}

const hreflang = hreflangLinks;

beforeAll(async () => {
  site = sharedRealSite();
  for (const [german, english] of Object.entries(pairs)) {
    pages.set(german, await site.read(`dist/${fileOf(german)}`));
    pages.set(english, await site.read(`dist/${fileOf(english)}`));
  }
});

describe('the German pages', () => {
  it.each(Object.keys(pairs))('%s says lang="de" and shows no English chrome', (route) => {
    const html = read(route);
    expect(html).toMatch(/^<!doctype html>\n<html lang="de">/);
    const text = shown(html);
    for (const word of ENGLISH_CHROME) expect(text, `${route}: "${word}"`).not.toMatch(new RegExp(`\\b${word}\\b`));
  });

  it.each(Object.entries(pairs).filter(([route]) => !/404|no-script/.test(route)))(
    '%s names %s as its English page, and is named by it, x-default English',
    (german, english) => {
      const links = [`en ${BASE}${english}`, `de ${BASE}${german}`, `x-default ${BASE}${english}`];
      expect(hreflang(read(german))).toEqual(links);
      expect(hreflang(read(english))).toEqual(links);
    },
  );

  it('tells social networks each page language and its translations, the English as British English as before', async () => {
    const ogLocale = (html: string) => /<meta property="og:locale" content="([^"]+)">/.exec(html)?.[1];
    const alternates = (html: string) =>
      [...html.matchAll(/<meta property="og:locale:alternate" content="([^"]+)">/g)].map((match) => match[1]);
    for (const [german, english] of Object.entries(pairs).filter(([route]) => !/404|no-script/.test(route))) {
      expect(ogLocale(read(german)), german).toBe('de');
      expect(ogLocale(read(english)), english).toBe('en_GB');
      expect(alternates(read(german)), german).toEqual(['en_GB']);
      expect(alternates(read(english)), english).toEqual(['de']);
    }
    // A page with no translation names none.
    expect(alternates(await site.read(`dist/${fileOf('/news/tags/company')}`))).toEqual([]);
  });

  it('leads each page to the same page in English with the switcher, and back', () => {
    for (const [german, english] of Object.entries(pairs)) {
      const switcher = (html: string) =>
        /<nav class="language-switcher" aria-label="([^"]+)">([\s\S]*?)<\/nav>/.exec(html) ?? ['', '', ''];
      const [, germanName, germanLinks] = switcher(read(german));
      const [, englishName, englishLinks] = switcher(read(english));
      expect([germanName, englishName]).toEqual(['Sprache', 'Language']);
      for (const links of [germanLinks, englishLinks]) {
        expect(links).toContain(`<a href="${english}" hrefLang="en" lang="en"`);
        expect(links).toContain(`<a href="${german}" hrefLang="de" lang="de"`);
      }
      expect(germanLinks).toMatch(new RegExp(`href="${german}"[^>]*aria-current="page"`));
      expect(englishLinks).toMatch(new RegExp(`href="${english}"[^>]*aria-current="page"`));
    }
  });

  it('link the header, the footer and the not-found pages to German pages', () => {
    for (const route of Object.keys(pairs)) {
      const links = [...read(route).matchAll(/<a [^>]*href="(\/[^"]*)"[^>]*>/g)]
        .filter(([tag]) => !tag!.includes('hrefLang'))
        .map(([, href]) => href!);
      expect(links.length, route).toBeGreaterThan(5);
      for (const href of links) expect(href, `${route} links ${href}`).toMatch(/^\/de(\/|$|#)/);
    }
  });

  it('show the spec pages in German words', () => {
    expect(shown(read('/de'))).toContain('Mit uns staken');
    expect(shown(read('/de/news'))).toContain('Neuigkeiten');
    expect(shown(read('/de/news/404'))).toMatch(/Nicht gefunden.*Diesen Artikel gibt es nicht\./);
    expect(shown(read('/de/404'))).toMatch(/Nicht gefunden.*Diese Seite gibt es nicht\./);
    expect(shown(read('/de/contact'))).toContain('Nachricht senden');
    expect(shown(read('/de/networks'))).toMatch(/Aktiv.*Adresse der Validator-Gruppe.*RPC-Endpunkte/);
  });
});

describe('the German legal page', () => {
  it('is an Austrian Impressum, its sections under their German names', () => {
    const html = read('/de/legal');
    expect(html).toContain('Offenlegung und Angaben gemäß § 5 ECG und § 25 MedienG.');
    const headings = [...html.matchAll(/<h2>([^<]+)<\/h2>/g)].map(([, heading]) => heading);
    expect(headings).toEqual([
      'Impressum',
      'Nutzungsbedingungen',
      'Haftungsausschluss',
      'Urheberrecht',
      'Links zu anderen Websites',
      'Datenschutz',
    ]);
    const text = shown(html);
    for (const label of ['Firmenbuchnummer', 'UID-Nummer', 'Firmenbuchgericht', 'Geschäftsführung', '1010 Wien'])
      expect(text).toContain(label);
    expect(text).toContain('hello@example.com');
  });
});

describe('the German news', () => {
  it('links its own feed, which holds the German article', async () => {
    expect(read('/de/news')).toContain(
      '<link rel="alternate" type="application/rss+xml" title="Neuigkeiten von Example Validators" href="/de/news/feed.xml">',
    );
    expect(read('/news')).toContain('href="/news/feed.xml"');
    const channel = new XMLParser().parse(await site.read('dist/de/news/feed.xml')).rss.channel;
    expect(channel.title).toBe('Neuigkeiten von Example Validators');
    expect(channel.language).toBe('de');
    const items = [channel.item].flat() as Array<{ title: string; link: string }>;
    expect(items.map((item) => [item.title, item.link])).toEqual([['Hallo Welt', `${BASE}/de/news/hello-world`]]);
    const english = new XMLParser().parse(await site.read('dist/news/feed.xml')).rss.channel;
    expect([english.item].flat().map((item: { title: string }) => item.title)).toEqual(['Hello world']);
  });

  it('has the hello-world article in German, with its German chrome and its own share card', async () => {
    const html = read('/de/news/hello-world');
    expect(html).toContain('<h1>Hallo Welt</h1>');
    expect(shown(html)).toMatch(/Neuigkeiten · 1\. Januar 2025/);
    expect(shown(html)).toMatch(/\d+ Min\. Lesezeit/);
    expect(html).toContain('<a class="tag" href="/de/news/tags/unternehmen">Unternehmen</a>');
    expect(html).toContain(`<meta property="og:image" content="${BASE}/de/news/hello-world.png">`);
    expect(read('/news/hello-world')).toContain(`<meta property="og:image" content="${BASE}/news/hello-world.png">`);
    const card = await site.read('dist/de/news/hello-world.png').catch(() => '');
    expect(card.length).toBeGreaterThan(1000);
  });

  it('lists the German article on /de/news, linked below /de', () => {
    expect(read('/de/news')).toContain('href="/de/news/hello-world"');
    expect(read('/de/news')).not.toContain('href="/news/hello-world"');
  });
});
