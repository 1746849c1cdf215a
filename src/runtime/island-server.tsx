import { createContext, createElement, useContext, type ComponentType, type Context } from 'react';

/**
 * The element around each island: a custom element is valid both in phrasing content (inside a
 * paragraph) and in flow content, and the site styles it `display: contents`.
 */
export const ISLAND_TAG = 'ssg-island';

export type Hydrate = 'load' | 'idle' | 'visible' | 'interaction';

export interface IslandOptions {
  /**
   * When the browser hydrates the island: at once, when idle (default), when scrolled into view,
   * or on the first interaction with it (a click that arrives before is replayed). A page whose
   * islands all wait for interaction fetches no script before the visitor interacts.
   */
  hydrate?: Hydrate;
}

export interface CollectedIsland {
  name: string;
  hydrate: Hydrate;
  Component: ComponentType<any>;
  props: object;
}

/** Filled while a page renders: the islands it contains, in document order. */
// One context for every copy of this module in a process: an MDX article's compiled code brings
// its own copy of `island`, and the renderer must see the islands it collects.
const COLLECTOR = Symbol.for('ssg.islandCollector');
export const IslandCollector: Context<CollectedIsland[] | null> = ((globalThis as Record<symbol, unknown>)[
  COLLECTOR
] ??= createContext<CollectedIsland[] | null>(null)) as Context<CollectedIsland[] | null>;

/**
 * Marks a component as an interactive island. The page renders a placeholder that the renderer
 * fills with the island rendered as its own root, so that the ids React generates on the server
 * are the ones it generates when it hydrates that root in the browser.
 */
export function island<Props extends object>(
  name: string,
  Component: ComponentType<Props>,
  options: IslandOptions = {},
): ComponentType<Props> {
  function Island(props: Props) {
    const collected = useContext(IslandCollector);
    if (!collected) return <Component {...props} />;
    const uid = collected.length;
    const hydrate = options.hydrate ?? 'idle';
    collected.push({ name, hydrate, Component, props });
    return createElement(ISLAND_TAG, {
      'data-island': name,
      'data-hydrate': hydrate,
      'data-props': JSON.stringify(props),
      'data-uid': uid,
    });
  }
  Island.displayName = `Island(${name})`;
  return Island;
}
