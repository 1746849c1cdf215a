import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot, type TempSite } from './helpers/project.ts';
import { buildRealSite, sharedRealSite } from './helpers/site.ts';

// Every route, text, count and constant of the product spec, checked on the built HTML.

let site: TempSite;
const pages = new Map<string, string>();
const read = (path: string) => pages.get(path)!;
const withoutWbr = (html: string) => html.replaceAll('<wbr/>', '');
/** The page's visible text, tags removed and whitespace folded. */
const text = (path: string) =>
  read(path)
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ');
/** The attributes of the element with this id. */
const attributesOf = (html: string, id: string) => {
  const tag = new RegExp(`<\\w+[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0] ?? '';
  return Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
};
const count = (html: string, pattern: RegExp) => (html.match(new RegExp(pattern, 'g')) ?? []).length;

const files: Record<string, string> = {
  '/': 'index.html',
  '/about': 'about.html',
  '/services': 'services.html',
  '/networks': 'networks.html',
  '/contact': 'contact.html',
  '/news': 'news.html',
  '/news/hello-world': 'news/hello-world.html',
  '/legal': 'legal.html',
  '/news/404': 'news/404.html',
  '/404': '404.html',
};

const config = parse(await readFile(`${repoRoot}/content/site.yaml`, 'utf8'));

beforeAll(async () => {
  site = sharedRealSite();
  for (const [route, file] of Object.entries(files)) pages.set(route, await site.read(`dist/${file}`));
});
afterAll(() => site?.dispose());

describe('every route of the spec is a page', () => {
  it.each(Object.keys(files))('%s', (route) => {
    expect(read(route)).toMatch(/^<!doctype html>/);
    expect(read(route)).toContain('<main id="main"');
  });
});

describe('every page can be reached', () => {
  it.each(Object.keys(files).filter((route) => !route.endsWith('404')))('%s is linked from another page', (route) => {
    const linkedFrom = [...pages.entries()].filter(
      ([from, html]) => from !== route && html.includes(`href="${route}"`),
    );
    expect(linkedFrom.length).toBeGreaterThan(0);
  });
});

describe('shared layout', () => {
  it.each(Object.keys(files))('%s has the header links, the Stake button and the footer', (route) => {
    const html = read(route);
    const header = html.slice(html.indexOf('<header class="site-header'), html.indexOf('</header>'));
    for (const [href, label] of [
      ['/', 'Home'],
      ['/about', 'About'],
      ['/networks', 'Networks'],
      ['/contact', 'Contact'],
    ]) {
      expect(header).toMatch(new RegExp(`<a href="${href}"[^>]*>${label}</a>`));
    }
    expect(header).toMatch(/<a class="button button-small" href="\/networks">Stake<\/a>/);
    expect(header).toMatch(
      /<button type="button" class="menu-toggle" popoverTarget="site-menu" aria-controls="site-menu">/,
    );
    expect(header).toMatch(/<nav id="site-menu" class="site-nav" aria-label="Main" popover="auto">/);

    const footer = html.slice(html.indexOf('<footer'));
    for (const network of ['linkedin', 'telegram', 'x', 'github'] as const) {
      expect(footer).toContain(`<a href="${config.social[network]}" target="_blank" rel="noopener noreferrer">`);
    }
    for (const href of ['/about', '/networks', '/news', '/contact', '/legal'])
      expect(footer).toMatch(new RegExp(`<a href="${href}"`));
    // The build's year, rendered at build time: no island, no script.
    expect(footer).toMatch(
      new RegExp(`© (<!-- -->)?${new Date().getUTCFullYear()}(<!-- -->)? (<!-- -->)?${config.legal.companyName}`),
    );
    expect(footer).not.toContain('<ssg-island');
  });

  it('marks the current page in the header', () => {
    expect(read('/about')).toMatch(/<a href="\/about" aria-current="page">About<\/a>/);
    expect(read('/networks')).toMatch(/<a href="\/networks" aria-current="page">Networks<\/a>/);
    expect(read('/about')).not.toMatch(/<a href="\/networks" aria-current="page">/);
  });

  it('has a skip link to the main content', () => {
    expect(read('/')).toContain('<a class="skip-link" href="#main">Skip to content</a>');
  });
});

describe('home', () => {
  it("has the hero buttons 'Stake with us' (/networks) and 'Contact' (/contact)", () => {
    expect(read('/')).toMatch(/<a class="button" href="\/networks">Stake with us<\/a>/);
    expect(read('/')).toMatch(/<a class="button button-secondary" href="\/contact">Contact<\/a>/);
  });

  it('has three value cards', () => {
    const values = read('/').slice(read('/').indexOf('id="values"'), read('/').indexOf('id="networks"'));
    expect(count(values, /<article class="card">/)).toBe(3);
    for (const title of ['Highly available infrastructure', 'Non-custodial staking', 'Secure and transparent']) {
      expect(values).toContain(`<h3 class="card-title">${title}</h3>`);
    }
  });

  it('lists the active networks Celo, Ethereum and Gnosis with a link to /networks', () => {
    const block = read('/').slice(read('/').indexOf('id="networks"'), read('/').indexOf('id="mission"'));
    expect([...block.matchAll(/<span>(\w+)<\/span>/g)].map((m) => m[1])).toEqual(['Celo', 'Ethereum', 'Gnosis']);
    expect(block).not.toContain('Optimism');
    expect(block).toMatch(/<a class="arrow-link" href="\/networks">/);
  });

  it('has the mission block', () => {
    expect(read('/')).toMatch(/id="mission"[\s\S]*Aligned with the networks we secure/);
  });

  it('has an FAQ with the 5 questions, each a toggle', () => {
    const html = read('/');
    expect(count(html, /<details class="faq-item">/)).toBe(5);
    const questions = [...html.matchAll(/<summary>([^<]+)<\/summary>/g)].map((m) => m[1]);
    expect(questions).toEqual([
      'What is Proof-of-Stake?',
      'What is non-custodial staking?',
      'Why should I stake?',
      'What are the risks of delegating?',
      'Can I access my tokens while they are staked?',
    ]);
  });

  it("has the stats block with its four values and 'Learn more' to /about", () => {
    const stats = read('/').slice(read('/').indexOf('id="stats"'));
    const pairs = [...stats.matchAll(/<dt>([^<]+)<\/dt><dd>([^<]+)<\/dd>/g)].map((m) => [m[1], m[2]]);
    expect(pairs).toEqual([
      ['Active Chains', '3'],
      ['Uptime', '99.9%+'],
      ['Started Validating', '2022'],
      ['Jurisdiction', 'Vienna, Austria'],
    ]);
    expect(stats).toMatch(/<a class="arrow-link" href="\/about">Learn more/);
  });
});

describe('about', () => {
  it('has the mission text', () => {
    expect(text('/about')).toContain('Our mission');
    expect(text('/about')).toContain('blockchain and web3 services');
  });

  it('has two team cards with photo, role and social links, and a contact link', () => {
    const html = read('/about');
    expect(count(html, /<li class="card team-card">/)).toBe(2);
    expect(html).toContain('<p class="team-role">Managing Director</p>');
    expect(html).toContain('<p class="team-role">Advisor</p>');
    expect(count(html, /<img src="\/team\/[\w-]+\.svg" alt="Portrait of /)).toBe(2);
    expect(html).toMatch(/team-card[\s\S]*target="_blank" rel="noopener noreferrer"/);
    expect(html).toMatch(/<a class="arrow-link" href="\/contact">/);
  });
});

describe('services', () => {
  it('has four cards', () => {
    const html = read('/services');
    expect(count(html, /<article class="card">/)).toBe(4);
    for (const title of [
      'Validator Operations',
      'Non-Custodial Staking',
      'Monitoring &amp; Reporting',
      'Infrastructure Advisory',
    ]) {
      expect(html).toContain(`<h2 class="card-title">${title}</h2>`);
    }
  });
});

describe('networks', () => {
  const card = (name: string) => {
    const html = read('/networks');
    const start = html.indexOf(`<h2 id="network-${name.toLowerCase()}">`);
    return html.slice(start, html.indexOf('</article>', start));
  };

  it('lists Celo, Ethereum, Gnosis and Optimism in that order, each with a logo', () => {
    const names = [...read('/networks').matchAll(/<h2 id="network-[\w-]+">(\w+)<\/h2>/g)].map((m) => m[1]);
    expect(names).toEqual(['Celo', 'Ethereum', 'Gnosis', 'Optimism']);
    // Each logo is its file's drawing, in the page (no image document of its own), decorative.
    const html = read('/networks');
    for (const name of names) {
      const heading = html.indexOf(`<h2 id="network-${name!.toLowerCase()}">`);
      const header = html.slice(html.lastIndexOf('<article', heading), heading);
      const file = readFileSync(`${repoRoot}/site/public/logos/${name!.toLowerCase()}.svg`, 'utf8');
      const drawing = file.slice(file.indexOf('>') + 1).trim();
      expect(header).toMatch(
        /<span class="network-logo"><svg width="48" height="48" aria-hidden="true" focusable="false"[^>]*>/,
      );
      expect(header).toContain(drawing);
    }
    expect(read('/networks')).not.toContain('/logos/');
    expect(read('/')).not.toContain('/logos/');
  });

  it('styles the status badge differently for Active and other statuses', () => {
    for (const name of ['Celo', 'Ethereum', 'Gnosis'])
      expect(card(name)).toContain('<span class="badge badge-active">Active</span>');
    expect(card('Optimism')).toContain('<span class="badge badge-other">Exploring</span>');
  });

  it('Celo: address with copy button, tags, four links, five copyable RPC endpoints and the note', () => {
    const celo = card('Celo');
    // Long values carry <wbr> break opportunities (site/components/soft-breaks.tsx).
    expect(withoutWbr(celo)).toMatch(
      /Validator group address[\s\S]*<code>0x[0-9a-fA-F]{40}<\/code><ssg-island data-island="copy-button"/,
    );
    expect([...celo.matchAll(/<ul class="tags"[^>]*>([\s\S]*?)<\/ul>/g)][0]![1]!.match(/<li>[^<]+/g)).toEqual([
      '<li>Mainnet',
      '<li>Non-custodial',
      '<li>Validator',
      '<li>Public RPC',
    ]);
    const links = celo.slice(celo.indexOf('<ul class="link-list">'));
    for (const label of ['Staking profile', 'Validator overview']) expect(links).toContain(label);
    expect(count(links.slice(0, links.indexOf('</ul>')), /<li>/)).toBe(4);
    expect(count(celo, /data-island="copy-button"/)).toBe(6);
    expect(celo).toContain('8 Oct 2022 (Epoch 898, Block 15517440)');
    expect(celo).toContain('without severe downtime or slashing');
    expect(celo).not.toContain('network-cta');
  });

  it('Ethereum and Gnosis have their tags and a contact button; Optimism has no button', () => {
    expect(card('Ethereum')).toMatch(
      /<li>Mainnet<\/li><li>Solo Staking<\/li><li>Lido CSM<\/li><li>Staking as a service<\/li>/,
    );
    expect(card('Gnosis')).toMatch(/<li>Mainnet<\/li><li>Solo Staking<\/li><li>Staking as a service<\/li>/);
    for (const name of ['Ethereum', 'Gnosis']) expect(card(name)).toMatch(/<a class="button" href="\/contact">/);
    expect(card('Optimism')).not.toMatch(/class="button"/);
  });
});

describe('a network logo that is not one of those put in the page', () => {
  it('is shown as an image of its file', async () => {
    const other = await buildRealSite(async (copy) => {
      await copy.write(
        'site/public/logos/new.svg',
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48"/></svg>',
      );
      const networks = await copy.read('content/networks.yaml');
      await copy.write('content/networks.yaml', networks.replace('logo: /logos/optimism.svg', 'logo: /logos/new.svg'));
    });
    try {
      const html = await other.read('dist/networks.html');
      expect(html).toMatch(
        /<img class="network-logo" src="\/logos\/new\.svg" alt="" width="48" height="48"\/>\s*<h2 id="network-optimism">/,
      );
    } finally {
      await other.dispose();
    }
  });
});

describe('contact', () => {
  it('has the e-mail shortcut with a copy button', () => {
    expect(withoutWbr(read('/contact'))).toMatch(
      new RegExp(`<a href="mailto:${config.email}">${config.email}</a><ssg-island data-island="copy-button"`),
    );
  });

  it('has the form: name, e-mail (type email), subject and message (6 rows), all required', () => {
    const html = read('/contact');
    expect(attributesOf(html, 'contact-name')).toMatchObject({ name: 'name', type: 'text', required: '' });
    expect(attributesOf(html, 'contact-email')).toMatchObject({ name: 'email', type: 'email', required: '' });
    expect(attributesOf(html, 'contact-subject')).toMatchObject({ name: 'subject', type: 'text', required: '' });
    expect(attributesOf(html, 'contact-message')).toMatchObject({ name: 'message', rows: '6', required: '' });
    expect(html).toMatch(/<textarea id="contact-message"/);
    for (const [id, label] of [
      ['contact-name', 'Name'],
      ['contact-email', 'E-mail'],
      ['contact-subject', 'Subject'],
      ['contact-message', 'Message'],
    ]) {
      expect(html).toContain(`<label for="${id}">${label}</label>`);
    }
    expect(html).toMatch(/<button type="submit" class="button">Send message<\/button>/);
  });
});

describe('news', () => {
  it("has the heading 'News' and the intro 'Updates from {brand}.'", () => {
    expect(read('/news')).toContain('<h1>News</h1>');
    expect(read('/news')).toContain(`<p class="lead">Updates from ${config.brand}.</p>`);
  });

  it('links each article card to /news/{slug} with date, title and excerpt', () => {
    expect(read('/news')).toMatch(
      /<a class="card news-card" href="\/news\/hello-world"><ssg-island[^>]*><time dateTime="2025-01-01">[^<]+<\/time><\/ssg-island><h2>Hello world<\/h2><p>Our new website is live/,
    );
  });

  it('article: date, title, excerpt and the Markdown body as HTML', () => {
    const html = read('/news/hello-world');
    expect(html).toMatch(/<time dateTime="2025-01-01">/);
    expect(html).toContain('<h1>Hello world</h1>');
    expect(html).toContain('<p class="lead">Our new website is live');
    // Headings carry their id and a visible anchor to themselves.
    expect(html).toContain(
      '<h2 id="what-you-will-find-here">What you will find here<a class="heading-anchor" aria-label="Link to the section “What you will find here”" href="#what-you-will-find-here">#</a></h2>',
    );
    expect(html).toContain('<a href="/contact">get in touch</a>');
  });

  it("unknown article: 'Not found' and 'The article does not exist.'", () => {
    expect(read('/news/404')).toContain('<h1>Not found</h1>');
    expect(read('/news/404')).toContain('The article does not exist.');
    expect(read('/404')).toContain('<h1>Not found</h1>');
  });
});

describe('legal', () => {
  it('has every section of the spec', () => {
    const page = text('/legal');
    for (const line of config.legal.address) expect(page).toContain(line);
    expect(page).toContain('Vienna');
    expect(page).toContain(config.email);
    for (const label of ['Company register number', 'VAT id', 'Commercial register court', 'Managing directors']) {
      expect(page).toContain(label);
    }
    expect(page).toContain(config.legal.registerNumber);
    expect(page).toContain(config.legal.vatId);
    for (const heading of ['Terms', 'Liability', 'Copyright', 'Links', 'Privacy'])
      expect(read('/legal')).toContain(`<h2>${heading}</h2>`);
    expect(page).toMatch(/general information only\. It is not financial, investment or legal advice/);
    expect(page).toMatch(/only the personal data needed to run this website and to answer your inquiries/);
    expect(page).toMatch(/contact form, we process the details you enter .* to handle your request/);
  });
});

describe('assets stay on this origin', () => {
  it.each(Object.keys(files))('%s loads no image, style or script from elsewhere', (route) => {
    const tags = read(route).match(/<(img|script|link)\b[^>]*>/g) ?? [];
    // The canonical URL and the page's translations (hreflang) are absolute links, nothing loaded.
    const named = (tag: string) => tag.includes('rel="canonical"') || /rel="alternate" hreflang=/.test(tag);
    const offsite = tags.filter((tag) => !named(tag) && /(src|href)="(https?:)?\/\//.test(tag));
    expect(tags.length).toBeGreaterThan(2);
    expect(offsite).toEqual([]);
  });
});

describe('server rules for unknown articles', () => {
  it('writes news/404.html and no _redirects (Cloudflare Pages rejects 404 rules; Netlify has netlify.toml)', async () => {
    expect(await site.read('dist/news/404.html')).toContain('The article does not exist.');
    expect(existsSync(site.file('dist/_redirects'))).toBe(false);
  });
});
