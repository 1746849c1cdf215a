import type { Article } from 'ssg';
import type { SiteConfig, SiteData } from './content.ts';
import { COMMON_SECURITY_HEADERS } from './security-headers.ts';
import { localePrefix } from './locales.ts';
import { shareImagePath } from './share-image.tsx';

/** The share image every page uses unless it has its own (1200×630 JPEG, in site/public). */
export const SHARE_IMAGE = '/og-image.jpg';

export function siteMeta(data: SiteData) {
  const { site } = data;
  return {
    name: site.brand,
    shortName: site.brand,
    description: site.description,
    language: 'en-GB',
    // The processed copy (a hashed name, so a changed image is fetched anew), else the file as it is.
    image: data.images?.[SHARE_IMAGE]?.src ?? SHARE_IMAGE,
    icon: '/favicon.svg',
    themeColor: '#0b1f33',
    backgroundColor: '#ffffff',
    twitterSite: `@${new URL(site.social.x).pathname.replace(/^\/+|\/+$/g, '')}`,
  };
}

/** schema.org Organization, for the home page. */
export function organization(site: SiteConfig, baseUrl: string, description = site.description) {
  const [street, city, country] = site.legal.address;
  const postal = /^(\d{4,5})\s+(.+)$/.exec(city ?? '');
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: site.legal.companyName,
    alternateName: site.brand,
    url: `${baseUrl}/`,
    logo: `${baseUrl}/favicon.svg`,
    email: site.email,
    description,
    address: {
      '@type': 'PostalAddress',
      streetAddress: street,
      postalCode: postal?.[1],
      addressLocality: postal?.[2] ?? city,
      addressCountry: country === 'Austria' ? 'AT' : country,
    },
    sameAs: Object.values(site.social),
  };
}

/** schema.org NewsArticle, for an article page. */
export function newsArticle(article: Article, site: SiteConfig, baseUrl: string) {
  const publisher = {
    '@type': 'Organization',
    name: site.legal.companyName,
    logo: { '@type': 'ImageObject', url: `${baseUrl}/favicon.svg` },
  };
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: article.title,
    description: article.excerpt || undefined,
    datePublished: article.date,
    dateModified: article.updated ?? article.date,
    mainEntityOfPage: `${baseUrl}${localePrefix(article.locale)}/news/${article.slug}`,
    image: [`${baseUrl}${shareImagePath(article)}`],
    keywords: article.tags?.join(', '),
    author: article.authors
      ? article.authors.map((name) => ({ '@type': 'Person', name }))
      : { '@type': 'Organization', name: site.brand, url: `${baseUrl}/` },
    publisher,
  };
}

/** The challenge provider's origin, or nothing when its script is served by this site (tests). */
function challengeOrigin(scriptUrl: string): string | undefined {
  return /^https:\/\//.test(scriptUrl) ? new URL(scriptUrl).origin : undefined;
}

/**
 * Security headers for every page. Scripts only from this site and the challenge provider, no
 * inline script or eval; the provider's widget may frame; nobody may frame this site.
 */
export function securityHeaders(data: SiteData): Record<string, string> {
  const provider = challengeOrigin(data.site.challenge.scriptUrl);
  const csp = [
    "default-src 'self'",
    `script-src 'self'${provider ? ` ${provider}` : ''}`,
    `frame-src ${provider ?? "'self'"}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { 'Content-Security-Policy': csp, ...COMMON_SECURITY_HEADERS };
}
