// The header's links, in the order the spec gives them: paths as English has them (each page
// puts them in its own language with localePath), labels as keys of content/strings.
export const mainNavigation = [
  { href: '/', label: 'nav.home' },
  { href: '/about', label: 'nav.about' },
  { href: '/networks', label: 'nav.networks' },
  { href: '/contact', label: 'nav.contact' },
];

export const stakeLink = { href: '/networks', label: 'nav.stake' };

export const footerNavigation = [
  { href: '/about', label: 'nav.about' },
  { href: '/networks', label: 'nav.networks' },
  { href: '/news', label: 'nav.news' },
  { href: '/contact', label: 'nav.contact' },
  { href: '/legal', label: 'nav.legal' },
];
