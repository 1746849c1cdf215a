import { useEffect, useState } from 'react';
import { island } from 'ssg';
import { CloseIcon, LogoMark, MenuIcon } from '../components/icons.tsx';

/** The header gains its shadow once the page is scrolled by more than this. */
export const SHADOW_THRESHOLD_PX = 8;

interface Link {
  href: string;
  label: string;
}

interface HeaderProps {
  brand: string;
  /** The link of the page being shown, if it is one of the header's. */
  current: string | null;
  links: Link[];
  stake: Link;
}

function Header({ brand, current, links, stake }: HeaderProps) {
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [enhanced, setEnhanced] = useState(false);

  useEffect(() => {
    setEnhanced(true);
    const update = () => setScrolled(window.scrollY > SHADOW_THRESHOLD_PX);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);

  useEffect(() => {
    // Every navigation is a page load, so the menu starts closed; a page restored from the
    // back-forward cache keeps its old state, so close it then too.
    const close = () => setMenuOpen(false);
    const onPageShow = (event: PageTransitionEvent) => event.persisted && close();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && close();
    window.addEventListener('pageshow', onPageShow);
    window.addEventListener('keydown', onKey);
    window.addEventListener('hashchange', close);
    return () => {
      window.removeEventListener('pageshow', onPageShow);
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('hashchange', close);
    };
  }, []);

  return (
    <header className={`site-header${scrolled ? ' is-scrolled' : ''}`} data-enhanced={enhanced || undefined}>
      <div className="container header-inner">
        <a className="brand" href="/" aria-current={current === '/' ? 'page' : undefined}>
          <LogoMark />
          <span>{brand}</span>
        </a>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <CloseIcon /> : <MenuIcon />}
          <span className="visually-hidden">Menu</span>
        </button>
        <nav id="site-menu" className={`site-nav${menuOpen ? ' is-open' : ''}`} aria-label="Main">
          <ul>
            {links.map((link) => (
              <li key={link.href}>
                <a href={link.href} aria-current={link.href === current ? 'page' : undefined} onClick={() => setMenuOpen(false)}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
          <a className="button button-small" href={stake.href} onClick={() => setMenuOpen(false)}>
            {stake.label}
          </a>
        </nav>
      </div>
    </header>
  );
}

export default island('header', Header, { hydrate: 'load' });
