import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { ISLAND_TAG, IslandCollector, type CollectedIsland } from './island-server.tsx';

export interface RenderedPage {
  html: string;
  /** Names of the islands on the page, each once, in document order. */
  islands: string[];
}

/** Renders a page, then each island on it as a root of its own into its placeholder. */
export function renderPage(element: ReactElement): RenderedPage {
  const collected: CollectedIsland[] = [];
  let html = renderToString(<IslandCollector.Provider value={collected}>{element}</IslandCollector.Provider>);
  collected.forEach(({ name, Component, props }, uid) => {
    assertPlainData(props, `Island "${name}" props`);
    const inner = renderToString(<Component {...props} />, { identifierPrefix: islandIdPrefix(uid) });
    const placeholder = ` data-uid="${uid}"></${ISLAND_TAG}>`;
    const at = html.indexOf(placeholder);
    html = `${html.slice(0, at)} data-uid="${uid}">${inner}</${ISLAND_TAG}>${html.slice(at + placeholder.length)}`;
  });
  return { html, islands: [...new Set(collected.map((island) => island.name))] };
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
  throw new Error(`${where} is a ${typeof value === 'object' ? 'non-plain object' : typeof value}; islands take plain JSON data only.`);
}
