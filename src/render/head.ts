import type { Head, SiteMeta } from './site-definition.ts';
import { BOOTSTRAP_SCRIPT } from '../runtime/bootstrap.ts';
import { feedPaths } from './feeds.ts';
import { escapeHtml } from './template.ts';

export interface HeadInput {
  head: Head;
  /** Absolute URL of the page, or undefined for pages that must not be indexed (404). */
  canonicalUrl?: string;
  baseUrl: string;
  meta?: SiteMeta;
  /** The site's feed, linked from every page. */
  feed?: { path: string; title: string };
  styles: readonly string[];
  /** A style sheet put in the page itself, saving the render-blocking request (its URL marks it for dev's style swap). */
  inlineStyle?: { url: string; text: string };
  /** The island loader, for pages that have islands. */
  script?: string;
  /** Import the loader only on the first interaction (every island on the page waits for one). */
  scriptOnInteraction?: boolean;
  /** With `i18n`: the page's locale, and its translations as `hreflang` links (`alternateLinks`). */
  locale?: string;
  hreflang?: ReadonlyArray<{ hreflang: string; href: string }>;
}

/** Open Graph's `language_TERRITORY` of a language tag: `de-AT` is `de_AT`, `zh-Hant-TW` is `zh_TW`. */
const ogLocale = (tag: string) => {
  const [language, ...rest] = tag.split('-');
  const region = rest.find((part) => /^([A-Za-z]{2}|\d{3})$/.test(part));
  return region ? `${language}_${region.toUpperCase()}` : language!;
};

/**
 * The page's language as precisely as the site knows it: its locale, or the site's language
 * (`meta.language`, `en-GB`) when the locale is that language without a region (`en`).
 */
const pageLanguage = (locale: string | undefined, language: string) =>
  locale === undefined || (locale.split('-')[0] === language.split('-')[0] && !locale.includes('-'))
    ? language
    : locale;

/** JSON inside <script>: `<` escaped, so no `</script>` can end the block early. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The tags the generator puts where the shell says <!--ssg:head-->. */
export function renderHead(input: HeadInput): string {
  const { head, canonicalUrl, baseUrl, meta, feed } = input;
  const attr = escapeHtml;
  const tags = [`<title>${escapeHtml(head.title)}</title>`];
  const description = head.description ?? meta?.description;
  if (description) tags.push(`<meta name="description" content="${attr(description)}">`);
  if (canonicalUrl) tags.push(`<link rel="canonical" href="${attr(canonicalUrl)}">`);
  else tags.push('<meta name="robots" content="noindex">');
  if (head.prev) tags.push(`<link rel="prev" href="${attr(baseUrl + head.prev)}">`);
  if (head.next) tags.push(`<link rel="next" href="${attr(baseUrl + head.next)}">`);
  // Only on a page that is its own canonical: search engines ignore hreflang that leads elsewhere.
  const ownCanonical = canonicalUrl !== undefined && input.hreflang?.some((link) => link.href === canonicalUrl);
  for (const link of ownCanonical ? (input.hreflang ?? []) : [])
    tags.push(`<link rel="alternate" hreflang="${attr(link.hreflang)}" href="${attr(link.href)}">`);

  if (meta) {
    const image = typeof head.image === 'object' ? head.image.path : (head.image ?? meta.image);
    const details = typeof head.image === 'object' ? head.image : undefined;
    const og: Array<[string, string | undefined]> = [
      ['og:type', head.type ?? 'website'],
      ['og:site_name', meta.name],
      ['og:title', head.title],
      ['og:description', description],
      ['og:url', canonicalUrl],
      ['og:locale', ogLocale(pageLanguage(input.locale, meta.language))],
      // The languages of its translations, as hreflang names them (on a page that is its own canonical).
      ...(ownCanonical ? (input.hreflang ?? []) : [])
        .filter((link) => link.hreflang !== 'x-default' && link.hreflang !== input.locale)
        .map((link): [string, string] => ['og:locale:alternate', ogLocale(pageLanguage(link.hreflang, meta.language))]),
      ['og:image', image && baseUrl + image],
      ['og:image:width', details && String(details.width)],
      ['og:image:height', details && String(details.height)],
      ['og:image:alt', details?.alt],
      ['article:published_time', head.publishedTime],
      ['article:modified_time', head.modifiedTime],
    ];
    for (const [property, content] of og)
      if (content) tags.push(`<meta property="${property}" content="${attr(content)}">`);
    tags.push(`<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">`);
    if (meta.twitterSite) tags.push(`<meta name="twitter:site" content="${attr(meta.twitterSite)}">`);
    tags.push(`<link rel="manifest" href="/manifest.webmanifest">`);
  }
  if (feed) tags.push(...feedLinks(feed));
  tags.push(...assetTags(input));
  // Structured data is a data block, never executed: it needs no script permission in the CSP.
  if (head.jsonLd) tags.push(`<script type="application/ld+json">${jsonForScript(head.jsonLd)}</script>`);
  return tags.join('\n');
}

/** The element that carries a style sheet inline, exactly as every page has it. */
export function inlineStyleTag(inline: { url: string; text: string }): string {
  return `<style data-ssg-style="${escapeHtml(inline.url)}">${inline.text}</style>`;
}

/** The style sheet and the script: the inline ones are allowed by their hash in the CSP. */
function assetTags({ styles, inlineStyle, script, scriptOnInteraction }: HeadInput): string[] {
  const attr = escapeHtml;
  const tags: string[] = [];
  for (const href of styles) {
    if (href === inlineStyle?.url) tags.push(inlineStyleTag(inlineStyle));
    else tags.push(`<link rel="stylesheet" href="${attr(href)}">`);
  }
  if (script && scriptOnInteraction) tags.push(`<script data-loader="${attr(script)}">${BOOTSTRAP_SCRIPT}</script>`);
  else if (script) tags.push(`<script type="module" src="${attr(script)}"></script>`);
  return tags;
}

/**
 * Points a page rendered before a style change at the new sheet (dev mode, pages not rendered
 * again): a link gets the new URL, an inline sheet the new text, as `renderHead` would write it.
 */
export function swapStyleSheet(
  html: string,
  from: string,
  to: string,
  inline: { before?: HeadInput['inlineStyle']; after?: HeadInput['inlineStyle'] },
): string {
  const next = assetTags({ head: { title: '' }, baseUrl: '', styles: [to], inlineStyle: inline.after })[0]!;
  const linked = `<link rel="stylesheet" href="${escapeHtml(from)}">`;
  const inlined = inline.before?.url === from ? inlineStyleTag(inline.before) : undefined;
  let swapped = html.replaceAll(linked, next);
  if (inlined) swapped = swapped.replaceAll(inlined, next);
  return swapped;
}

/** The feed in each format it is written in, for readers and browsers that look in the head. */
function feedLinks(feed: { path: string; title: string }): string[] {
  const paths = feedPaths(feed.path);
  const link = (type: string, href: string) =>
    `<link rel="alternate" type="${type}" title="${escapeHtml(feed.title)}" href="${escapeHtml(href)}">`;
  return [
    link('application/rss+xml', paths.rss),
    ...(paths.atom ? [link('application/atom+xml', paths.atom)] : []),
    ...(paths.json ? [link('application/feed+json', paths.json)] : []),
  ];
}
