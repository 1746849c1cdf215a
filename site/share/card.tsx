// The share card of an article (its og:image), 1200 × 630: a React component that satori lays out
// as it would a page (flexbox, the fonts below), drawn to PNG by sharp. Change the card's look here:
// satori reads the `style` props, a subset of CSS (https://github.com/vercel/satori#css); every card
// is drawn again on the next build, since the site's code is part of each card's cache key.

export const CARD_SIZE = { width: 1200, height: 630 } as const;

/** The fonts the card uses, as files in this folder (TTF or OTF; satori reads no WOFF2). */
export const CARD_FONTS = [
  { name: 'Inter', file: 'inter-400.ttf', weight: 400, style: 'normal' },
  { name: 'Inter', file: 'inter-700.ttf', weight: 700, style: 'normal' },
] as const;

/** What one card shows. */
export interface CardProps {
  title: string;
  /** The date as shown: `1 January 2025`. */
  date: string;
  brand: string;
}

export function ShareCard({ title, date, brand }: CardProps) {
  return (
    <div
      style={{
        width: CARD_SIZE.width,
        height: CARD_SIZE.height,
        display: 'flex',
        flexDirection: 'column',
        padding: '72px 88px',
        boxSizing: 'border-box',
        color: '#ffffff',
        fontFamily: 'Inter',
        backgroundImage: 'linear-gradient(135deg, #0b1f33 0%, #102c45 60%, #0f6d62 100%)',
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', height: 64, fontSize: 36, fontWeight: 700 }}>
        <svg width="64" height="64" viewBox="0 0 32 32" style={{ marginRight: 22 }}>
          <rect width="32" height="32" rx="8" fill="#35c2ad" />
          <path d="M9 10.5 16 22l7-11.5" fill="none" stroke="#04201c" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        {brand}
      </div>
      <div style={{ display: 'flex', flexGrow: 1, alignItems: 'center', width: '100%' }}>
        <div style={{ display: 'block', width: '100%', fontSize: 60, fontWeight: 700, lineHeight: 1.15, lineClamp: 3 }}>{title}</div>
      </div>
      <div style={{ display: 'flex', height: 36, fontSize: 30, lineHeight: 1.2, color: '#b9d3e2' }}>{`News · ${date}`}</div>
    </div>
  );
}
