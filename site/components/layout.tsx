import type { ReactNode } from 'react';
import type { PageProps } from 'ssg';
import type { SiteData } from '../content.ts';
import { footerNavigation, mainNavigation, stakeLink } from '../navigation.ts';
import { Header } from './header.tsx';
import { LogoMark, socialIcons, socialLabels } from './icons.tsx';

export function Layout({ path, data, now, children }: PageProps<SiteData> & { children: ReactNode }) {
  const { site } = data;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header
        brand={site.brand}
        current={mainNavigation.some((link) => link.href === path) ? path : null}
        links={mainNavigation}
        stake={stakeLink}
      />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">
        <div className="container footer-inner">
          <div className="footer-brand">
            <a className="brand" href="/">
              <LogoMark />
              <span>{site.brand}</span>
            </a>
            <p>Non-custodial validator infrastructure from Vienna, Austria.</p>
            <ul className="social-links" aria-label="Social media">
              {(Object.keys(socialIcons) as Array<keyof typeof socialIcons>).map((key) => {
                const Icon = socialIcons[key];
                return (
                  <li key={key}>
                    <a href={site.social[key]} target="_blank" rel="noopener noreferrer">
                      <Icon />
                      <span className="visually-hidden">{socialLabels[key]} (opens in a new tab)</span>
                    </a>
                  </li>
                );
              })}
            </ul>
          </div>
          <nav aria-label="Footer">
            <ul className="footer-links">
              {footerNavigation.map((link) => (
                <li key={link.href}>
                  <a href={link.href} aria-current={link.href === path ? 'page' : undefined}>
                    {link.label}
                  </a>
                </li>
              ))}
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
