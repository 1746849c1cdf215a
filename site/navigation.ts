// The header's links, in the order the spec gives them.
export const mainNavigation = [
  { href: '/', label: 'Home' },
  { href: '/about', label: 'About' },
  { href: '/networks', label: 'Networks' },
  { href: '/contact', label: 'Contact' },
];

export const stakeLink = { href: '/networks', label: 'Stake' };

export const footerNavigation = [
  { href: '/about', label: 'About' },
  { href: '/networks', label: 'Networks' },
  { href: '/news', label: 'News' },
  { href: '/contact', label: 'Contact' },
  { href: '/legal', label: 'Legal' },
];
