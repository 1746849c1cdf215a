import type { ReactNode } from 'react';
import type { PageProps } from 'ssg';
import type { SiteData } from '../content.ts';
import { i18n } from '../locales.ts';
import { footerNavigation, mainNavigation, stakeLink } from '../navigation.ts';
import { Header, type LanguageLink } from './header.tsx';
import { LogoMark, socialIcons, socialLabels } from './icons.tsx';

type LayoutProps = PageProps<SiteData> & { children: ReactNode };

/**
 * The page in each language: its translation where it has one, else (an article or tag written in
 * one language only) the news list, or the home page, in that language.
 */
function languagesOf({ alternates, localePath, path }: LayoutProps): LanguageLink[] {
  return i18n.locales.map((locale) => {
    const translation = alternates.find((alternate) => alternate.locale === locale);
    const nearest = localePath(/\/news(\/|$)/.test(path) ? '/news' : '/', locale);
    return { locale, path: translation?.path ?? nearest, name: names[locale] ?? locale };
  });
}

/** Each language's own name, as the switcher says it whatever the page's language. */
const names: Record<string, string> = { en: 'English', de: 'Deutsch' };

export function Layout(props: LayoutProps) {
  const { path, data, now, children, locale = i18n.defaultLocale, localePath, t } = props;
  const { site } = data;
  const main = mainNavigation.map((link) => ({ href: localePath(link.href), label: t(link.label) }));
  return (
    <>
      <a className="skip-link" href="#main">
        {t('layout.skip')}
      </a>
      <Header
        brand={site.brand}
        home={localePath('/')}
        current={main.some((link) => link.href === path) ? path : null}
        links={main}
        stake={{ href: localePath(stakeLink.href), label: t(stakeLink.label) }}
        locale={locale}
        languages={languagesOf(props)}
        words={{ menu: t('layout.menu'), main: t('layout.mainNav'), language: t('language.label') }}
      />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">
        <div className="container footer-inner">
          <div className="footer-brand">
            <a className="brand" href={localePath('/')}>
              <LogoMark />
              <span>{site.brand}</span>
            </a>
            <p>{t('layout.tagline')}</p>
            <ul className="social-links" aria-label={t('layout.social')}>
              {(Object.keys(socialIcons) as Array<keyof typeof socialIcons>).map((key) => {
                const Icon = socialIcons[key];
                return (
                  <li key={key}>
                    <a href={site.social[key]} target="_blank" rel="noopener noreferrer">
                      <Icon />
                      <span className="visually-hidden">{`${socialLabels[key]} (${t('layout.newTab')})`}</span>
                    </a>
                  </li>
                );
              })}
            </ul>
          </div>
          <nav aria-label={t('layout.footerNav')}>
            <ul className="footer-links">
              {footerNavigation.map((link) => {
                const href = localePath(link.href);
                return (
                  <li key={link.href}>
                    <a href={href} aria-current={href === path ? 'page' : undefined}>
                      {t(link.label)}
                    </a>
                  </li>
                );
              })}
            </ul>
          </nav>
        </div>
        <div className="container footer-bottom">
          <p>
            {/* `now` is the build date: a build a year gives the right year, without a script. In UTC,
                the day the build and its caches go by, whatever the time zone it runs in. */}
            © {now.getUTCFullYear()} {site.legal.companyName}
          </p>
        </div>
      </footer>
    </>
  );
}
