import celo from '../public/logos/celo.svg' with { type: 'text' };
import ethereum from '../public/logos/ethereum.svg' with { type: 'text' };
import gnosis from '../public/logos/gnosis.svg' with { type: 'text' };
import optimism from '../public/logos/optimism.svg' with { type: 'text' };

/**
 * The logos content/networks.yaml names, by path, put in the page itself: an SVG shown as an
 * <img> is a document of its own for the browser (a request, a parse, a layout and a paint on the
 * main thread while the page loads), four of them on /networks. A logo not listed here is shown
 * as an image.
 */
const inlined: Record<string, string> = {
  '/logos/celo.svg': celo,
  '/logos/ethereum.svg': ethereum,
  '/logos/gnosis.svg': gnosis,
  '/logos/optimism.svg': optimism,
};

/** The file's markup at `size` px, decorative (the network's name is beside it): hidden from assistive technology. */
export function decorativeSvg(markup: string, size: number): string {
  // Only the root element's own attributes change; the drawing is kept as it is.
  return markup
    .trim()
    .replace(/^<svg\b[^>]*>/, (root) =>
      root
        .replace(/\s(?:role|aria-label|width|height)="[^"]*"/g, '')
        .replace(/^<svg\b/, `<svg width="${size}" height="${size}" aria-hidden="true" focusable="false"`),
    );
}

export function NetworkLogo({ src, size }: { src: string; size: number }) {
  const markup = inlined[src];
  if (!markup) return <img className="network-logo" src={src} alt="" width={size} height={size} />;
  return <span className="network-logo" dangerouslySetInnerHTML={{ __html: decorativeSvg(markup, size) }} />;
}
