// The share card of an article (its og:image), 1200 × 630: React components that satori lays out
// as it would a page (flexbox, the fonts below), drawn to PNG by sharp. Change the card's look here:
// satori reads the `style` props, a subset of CSS (https://github.com/vercel/satori#css). The card
// is two layers: the backdrop, the same on every card (drawn once per build helper), and the text
// of each card, drawn over it at TEXT_AREA. A card is drawn again when this module, one it
// imports, the drawing code in share-image.tsx or the fonts change, and no other site code.
import type { ReactNode } from 'react';

export const CARD_SIZE = { width: 1200, height: 630 } as const;

/** The fonts the card uses, as files in this folder (TTF or OTF; satori reads no WOFF2). */
export const CARD_FONTS = [
  { name: 'Inter', file: 'inter-400.ttf', weight: 400, style: 'normal' },
  { name: 'Inter', file: 'inter-700.ttf', weight: 700, style: 'normal' },
] as const;

const PADDING = { x: 88, y: 72 };
const BRAND_ROW = 64;

/** Where a card's text goes on the backdrop: below the brand row, inside the padding. */
export const TEXT_AREA = {
  left: PADDING.x,
  top: PADDING.y + BRAND_ROW,
  width: CARD_SIZE.width - 2 * PADDING.x,
  height: CARD_SIZE.height - 2 * PADDING.y - BRAND_ROW,
} as const;

/** What one card shows. */
export interface CardProps {
  title: string;
  /** The date as shown: `1 January 2025`. */
  date: string;
  brand: string;
}

/** What every card shows: the gradient, the logo and the brand; `children` fill TEXT_AREA. */
export function CardBackdrop({ brand, children }: { brand: string; children?: ReactNode }) {
  return (
    <div
      style={{
        width: CARD_SIZE.width,
        height: CARD_SIZE.height,
        display: 'flex',
        flexDirection: 'column',
        padding: `${PADDING.y}px ${PADDING.x}px`,
        boxSizing: 'border-box',
        color: '#ffffff',
        fontFamily: 'Inter',
        backgroundImage: 'linear-gradient(135deg, #0b1f33 0%, #102c45 60%, #0f6d62 100%)',
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', height: BRAND_ROW, fontSize: 36, fontWeight: 700 }}>
        <svg width="64" height="64" viewBox="0 0 32 32" style={{ marginRight: 22 }}>
          <rect width="32" height="32" rx="8" fill="#35c2ad" />
          <path
            d="M9 10.5 16 22l7-11.5"
            fill="none"
            stroke="#04201c"
            strokeWidth="3"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        {brand}
      </div>
      {children}
    </div>
  );
}

/** What each card shows on its own: the title (at most three lines) and the date, on no background. */
export function CardText({ title, date }: Pick<CardProps, 'title' | 'date'>) {
  return (
    <div
      style={{
        display: 'flex',
        flexDirection: 'column',
        width: TEXT_AREA.width,
        height: TEXT_AREA.height,
        color: '#ffffff',
        fontFamily: 'Inter',
      }}
    >
      <div style={{ display: 'flex', flexGrow: 1, alignItems: 'center', width: '100%' }}>
        <div style={{ display: 'block', width: '100%', fontSize: 60, fontWeight: 700, lineHeight: 1.15, lineClamp: 3 }}>
          {title}
        </div>
      </div>
      <div
        style={{ display: 'flex', height: 36, fontSize: 30, lineHeight: 1.2, color: '#b9d3e2' }}
      >{`News · ${date}`}</div>
    </div>
  );
}

/** The whole card, as one component: the text on the backdrop (as the two layers are drawn). */
export function ShareCard({ title, date, brand }: CardProps) {
  return (
    <CardBackdrop brand={brand}>
      <CardText title={title} date={date} />
    </CardBackdrop>
  );
}
