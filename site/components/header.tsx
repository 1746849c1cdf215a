import { LogoMark, MenuIcon } from './icons.tsx';

interface Link {
  href: string;
  label: string;
}

/** The page in one language, for the switcher: its path, the language's tag and its own name. */
export interface LanguageLink {
  locale: string;
  path: string;
  name: string;
}

interface HeaderProps {
  brand: string;
  /** The home page in the page's language. */
  home: string;
  /** The link of the page being shown, if it is one of the header's. */
  current: string | null;
  links: Link[];
  stake: Link;
  /** The page's language and the links to the page in each language, itself among them. */
  locale: string;
  languages: LanguageLink[];
  words: { menu: string; main: string; language: string };
}

/**
 * The page in each language: a short tag (EN, DE), named in its own language for screen readers,
 * the current one marked. Outside the popover, so it is one tap away at any width.
 */
function LanguageSwitcher({ locale, languages, label }: { locale: string; languages: LanguageLink[]; label: string }) {
  return (
    <nav className="language-switcher" aria-label={label}>
      <ul>
        {languages.map((language) => (
          <li key={language.locale}>
            <a
              href={language.path}
              hrefLang={language.locale}
              lang={language.locale}
              aria-current={language.locale === locale ? 'page' : undefined}
              title={language.name}
            >
              {/* Read as the language's name, shown as its short tag. */}
              <span aria-hidden="true">{language.locale.toUpperCase()}</span>
              <span className="visually-hidden">{language.name}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * Plain HTML, no island: the mobile menu is a popover the browser opens and closes by itself
 * (light dismiss, Escape), so it works before and without JavaScript. Every link is a page load,
 * which starts with the menu closed. The shadow once scrolled is a scroll-driven animation in CSS.
 * Browsers without popovers ignore the attribute and show the menu open, never a dead toggle.
 */
export function Header({ brand, home, current, links, stake, locale, languages, words }: HeaderProps) {
  return (
    <header className="site-header">
      <div className="container header-inner">
        <a className="brand" href={home} aria-current={current === home ? 'page' : undefined}>
          <LogoMark />
          <span>{brand}</span>
        </a>
        <LanguageSwitcher locale={locale} languages={languages} label={words.language} />
        <button type="button" className="menu-toggle" popoverTarget="site-menu" aria-controls="site-menu">
          <MenuIcon />
          <span className="visually-hidden">{words.menu}</span>
        </button>
        <nav id="site-menu" className="site-nav" aria-label={words.main} popover="auto">
          <ul>
            {links.map((link) => (
              <li key={link.href}>
                <a href={link.href} aria-current={link.href === current ? 'page' : undefined}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
          <a className="button button-small" href={stake.href}>
            {stake.label}
          </a>
        </nav>
      </div>
    </header>
  );
}
