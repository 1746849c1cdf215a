/** A page's `hreflang` links, each as `<hreflang> <href>`, in the order the page has them. */
export const hreflangLinks = (html: string): string[] =>
  [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map(
    ([, lang, href]) => `${lang} ${href}`,
  );
