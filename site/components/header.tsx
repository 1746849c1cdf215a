import { LogoMark, MenuIcon } from './icons.tsx';

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

/**
 * Plain HTML, no island: the mobile menu is a popover the browser opens and closes by itself
 * (light dismiss, Escape), so it works before and without JavaScript. Every link is a page load,
 * which starts with the menu closed. The shadow once scrolled is a scroll-driven animation in CSS.
 * Browsers without popovers ignore the attribute and show the menu open, never a dead toggle.
 */
export function Header({ brand, current, links, stake }: HeaderProps) {
  return (
    <header className="site-header">
      <div className="container header-inner">
        <a className="brand" href="/" aria-current={current === '/' ? 'page' : undefined}>
          <LogoMark />
          <span>{brand}</span>
        </a>
        <button type="button" className="menu-toggle" popoverTarget="site-menu" aria-controls="site-menu">
          <MenuIcon />
          <span className="visually-hidden">Menu</span>
        </button>
        <nav id="site-menu" className="site-nav" aria-label="Main" popover="auto">
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
