import type { ReactElement } from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { ISLAND_TAG, IslandCollector, type CollectedIsland } from './island-server.tsx';

export interface RenderedPage {
  html: string;
  /** Names of the islands on the page, each once, in document order. */
  islands: string[];
  /** Whether an island hydrates without waiting for the visitor (load, idle or visible). */
  eager: boolean;
}

// An island renders the same for the same props at the same place: the header and footer islands
// of a thousand article pages render once. Islands render from their props alone.
const rendered = new Map<string, string>();

/**
 * Renders a page, then each island on it as a root of its own into its placeholder. An MDX
 * article's body is rendered alike, without React's text markers (it is no root that hydrates),
 * its islands numbered apart from the page's (`uidPrefix`).
 */
export function renderPage(
  element: ReactElement,
  options: { uidPrefix?: string; staticMarkup?: boolean } = {},
): RenderedPage {
  const collected: CollectedIsland[] = [];
  const render = options.staticMarkup ? renderToStaticMarkup : renderToString;
  const page = render(<IslandCollector.Provider value={collected}>{element}</IslandCollector.Provider>);
  // Placeholders appear in document order: fill them in one pass, not one copy of the page each.
  const parts: string[] = [];
  let from = 0;
  collected.forEach(({ name, Component, props }, index) => {
    const uid = `${options.uidPrefix ?? ''}${index}`;
    assertPlainData(props, `Island "${name}" props`);
    const placeholder = ` data-uid="${index}"></${ISLAND_TAG}>`;
    const at = page.indexOf(placeholder, from);
    const key = `${name}\0${uid}\0${JSON.stringify(props)}`;
    let inner = rendered.get(key);
    if (inner === undefined) {
      inner = renderToString(<Component {...props} />, { identifierPrefix: islandIdPrefix(uid) });
      if (rendered.size > 5000) rendered.clear();
      rendered.set(key, inner);
    }
    parts.push(page.slice(from, at), ` data-uid="${uid}">`, inner, `</${ISLAND_TAG}>`);
    from = at + placeholder.length;
  });
  parts.push(page.slice(from));
  const inHtml = islandsInHtml(page);
  return {
    html: parts.join(''),
    islands: [...new Set([...collected.map((island) => island.name), ...inHtml.map((island) => island.name)])],
    eager:
      collected.some((island) => island.hydrate !== 'interaction') ||
      inHtml.some((island) => island.hydrate !== 'interaction'),
  };
}

/**
 * Islands already written in HTML the page shows as it is (an article's code blocks carry the
 * copy button's): complete, with no placeholder to fill. The sanitiser lets no author write one.
 */
const ISLAND_IN_HTML = new RegExp(
  `<${ISLAND_TAG} data-island="([^"<>]+)" data-hydrate="([a-z]+)" data-props="[^"<>]*"(?: data-uid="[a-z]+\\d+")?>`,
  'g',
);

function islandsInHtml(page: string): Array<{ name: string; hydrate: string }> {
  // Copies: a substring would keep the whole page alive as long as its list of islands is kept.
  return [...page.matchAll(ISLAND_IN_HTML)].map(
    (match) => JSON.parse(JSON.stringify({ name: match[1]!, hydrate: match[2]! })) as { name: string; hydrate: string },
  );
}

export function islandIdPrefix(uid: number | string): string {
  return `i${uid}-`;
}

/** Island props travel as JSON, so anything JSON cannot carry faithfully is a mistake. */
function assertPlainData(value: unknown, where: string): void {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => assertPlainData(item, `${where}[${index}]`));
    return;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value as object)) {
      if (item !== undefined) assertPlainData(item, `${where}.${key}`);
    }
    return;
  }
  throw new Error(
    `${where} is a ${typeof value === 'object' ? 'non-plain object' : typeof value}; islands take plain JSON data only.`,
  );
}
