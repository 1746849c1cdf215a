// The footer's year is the build's year in UTC, the day the build and its caches go by: a build
// in another time zone, or a repeated build with nothing changed, shows the same year.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Layout } from '../site/components/layout.tsx';
import { repoRoot } from './helpers/project.ts';

const site = parse(readFileSync(path.join(repoRoot, 'content', 'site.yaml'), 'utf8'));
const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

const footerYear = (now: Date) => {
  // A page's words are their keys here: only the year is looked at.
  const props = {
    path: '/',
    data: { site },
    now,
    articles: [],
    params: {},
    alternates: [],
    localePath: (path: string) => path,
    t: (key: string) => key,
  } as unknown as Parameters<typeof Layout>[0];
  const html = renderToStaticMarkup(createElement(Layout, props, 'page'));
  return /© (?:<!-- -->)?(\d{4})/.exec(html)?.[1];
};

describe('the footer year', () => {
  it('is the UTC year of the build whatever the time zone (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        fc.constantFrom('UTC', 'Europe/Vienna', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'),
        (now, timeZone) => {
          process.env.TZ = timeZone;
          expect(footerYear(now)).toBe(String(now.getUTCFullYear()));
        },
      ),
    );
    // New Year's Eve in Vienna: 23:30 UTC is already next year there.
    process.env.TZ = 'Europe/Vienna';
    expect(footerYear(new Date('2026-12-31T23:30:00Z'))).toBe('2026');
  });
});
