// The site's languages: English at the site's own paths, German below /de (docs/i18n.md). The
// pages' words are in content/strings/<locale>.yaml; what content/*.yaml says in German is in
// each item's `de` fields, read here.
import type { Network, SiteConfig, SiteData, TeamMember } from './content.ts';

export const DEFAULT_LOCALE = 'en';
export const i18n = { locales: [DEFAULT_LOCALE, 'de'], defaultLocale: DEFAULT_LOCALE };

/** The folder a locale's pages and drawn files are below: none for English, `/de` for German. */
export const localePrefix = (locale: string | undefined) => (!locale || locale === DEFAULT_LOCALE ? '' : `/${locale}`);

/** The locale `Intl` formats a page's dates in where the reader's own is not known (the build). */
export const dateLocale = (locale: string | undefined) => (locale === 'de' ? 'de' : 'en-GB');

/** A network card as the page in `locale` shows it. */
export function networkIn(network: Network, locale: string | undefined): Network {
  const own = locale === 'de' ? network.de : undefined;
  if (!own) return network;
  return {
    ...network,
    tags: own.tags ?? network.tags,
    noteTitle: own.noteTitle ?? network.noteTitle,
    note: own.note ?? network.note,
    cta: network.cta && { ...network.cta, label: own.ctaLabel ?? network.cta.label },
    links: network.links.map((link, index) => ({ ...link, label: own.linkLabels?.[index] ?? link.label })),
    copyItems: network.copyItems.map((item, index) => ({ ...item, label: own.copyLabels?.[index] ?? item.label })),
  };
}

/** A team member's card as the page in `locale` shows it. */
export function memberIn(member: TeamMember, locale: string | undefined): TeamMember {
  const own = locale === 'de' ? member.de : undefined;
  return own ? { ...member, role: own.role ?? member.role, bio: own.bio ?? member.bio } : member;
}

/** The site's settings as the pages in `locale` show them: its description and legal details. */
export function siteIn(site: SiteConfig, locale: string | undefined): SiteConfig {
  const own = locale === 'de' ? site.de : undefined;
  if (!own) return site;
  const legal = own.legal ?? {};
  return {
    ...site,
    description: own.description ?? site.description,
    legal: {
      ...site.legal,
      address: legal.address ?? site.legal.address,
      registerCourt: legal.registerCourt ?? site.legal.registerCourt,
    },
  };
}

/**
 * A text of content/strings/<locale>.yaml where no page's `t` is at hand (the feed): the strings
 * collection's entry for the locale, else the default locale's, each `{name}` filled from `values`.
 */
export function stringOf(
  data: SiteData,
  locale: string | undefined,
  key: string,
  values: Record<string, string> = {},
): string {
  const lookUp = (wanted: string) => {
    let value: unknown = data.strings?.find((entry) => entry.id === wanted)?.data;
    for (const part of key.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
    return typeof value === 'string' ? value : undefined;
  };
  const text = lookUp(locale ?? DEFAULT_LOCALE) ?? lookUp(DEFAULT_LOCALE);
  if (text === undefined) throw new Error(`content/strings has no "${key}"`);
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The page's locale where it is not the default one: what islands need to know to speak it. */
export const otherLocale = (locale: string | undefined) => (locale && locale !== DEFAULT_LOCALE ? locale : undefined);
