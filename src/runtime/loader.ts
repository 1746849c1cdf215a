// The island loader: it finds the islands and hydrates each when its strategy says so, fetching
// React and the island's code only then. Pages whose islands all wait for interaction import it
// from the inline bootstrap on the first interaction; other pages load it up front.
type IslandModule = { default: import('react').ComponentType<any> };
/** A plain island's browser code: it enhances the server-rendered HTML itself, without React. */
export type EnhanceIsland = (element: HTMLElement, props: any) => void;
export type IslandLoaders = Record<
  string,
  | { plain?: false; load: () => Promise<IslandModule> }
  | { plain: true; load: () => Promise<{ default: EnhanceIsland }> }
>;
type IslandCode = IslandLoaders[string];

interface Bootstrap {
  events: Event[];
  stop(): void;
}

declare global {
  interface Window {
    __ssgBoot?: Bootstrap;
  }
}

/** Events that mean the visitor is reaching for a widget: hydrate it before its turn. */
const REACHING = ['pointerover', 'pointerdown', 'focusin', 'touchstart', 'keydown'] as const;

/**
 * Runs `run` once the page has painted its first content: an island's code (React, for most)
 * fetched sooner would share a slow line with what that paint needs (the font) and delay it.
 */
function afterFirstPaint(run: () => void): void {
  const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
  // A browser without paint timing never reports the paint: it runs at once.
  if (!('PerformanceObserver' in window) || !PerformanceObserver.supportedEntryTypes?.includes('paint') || painted()) {
    run();
    return;
  }
  const observer = new PerformanceObserver(() => {
    if (!painted()) return;
    observer.disconnect();
    run();
  });
  observer.observe({ type: 'paint' });
}

function whenIdle(run: () => void): void {
  afterFirstPaint(() => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 200);
  });
}

function whenVisible(element: HTMLElement, run: () => void): void {
  afterFirstPaint(() => observeVisible(element, run));
}

function observeVisible(element: HTMLElement, run: () => void): void {
  // The wrapper has `display: contents` and no box of its own; watch what it wraps.
  const target = element.firstElementChild ?? element;
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        run();
      }
    },
    { rootMargin: '200px' },
  );
  observer.observe(target);
}

/**
 * Hydrates one island when asked, once. A click that lands on it before hydration has started
 * would find no handler: it is kept and replayed on its target once the island is live (React
 * replays the ones that arrive while it hydrates by itself).
 */
function prepareIsland(element: HTMLElement, code: IslandCode) {
  const name = element.dataset.island ?? '';
  let started = false;
  let missedClick: Element | undefined;
  const hydrate = () => {
    if (started) return;
    started = true;
    makeLive(element, code, () => element.removeEventListener('click', keepClick, true))
      .then(() => {
        if (missedClick?.isConnected) (missedClick as HTMLElement).click();
        missedClick = undefined;
      })
      .catch((error: unknown) => console.error(`Island "${name}" failed to load.`, error));
  };
  function keepClick(event: Event) {
    if (event.isTrusted && event.target instanceof Element) missedClick = event.target;
    hydrate();
  }
  element.addEventListener('click', keepClick, true);
  for (const type of REACHING) element.addEventListener(type, hydrate, { once: true, passive: true });
  return { hydrate, keepClick };
}

/**
 * Runs an island's browser code on its element: a plain island's function, or React hydration
 * (only then is React fetched). `beforeLive` runs just before, once nothing will be missed.
 */
async function makeLive(element: HTMLElement, code: IslandCode, beforeLive: () => void): Promise<void> {
  if (code.plain) {
    const { default: enhance } = await code.load();
    beforeLive();
    enhance(element, JSON.parse(element.dataset.props ?? '{}'));
    element.dataset.hydrated = 'true';
    return;
  }
  const [module, { hydrateIsland }] = await Promise.all([code.load(), import('./hydrate.tsx')]);
  // From here React sees the clicks itself: keep none twice.
  beforeLive();
  await hydrateIsland(element, module.default);
}

export function start(loaders: IslandLoaders): void {
  const boot = window.__ssgBoot;
  boot?.stop();
  for (const element of document.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = element.dataset.island ?? '';
    const code = loaders[name];
    if (!code) {
      console.error(`No code for island "${name}".`);
      continue;
    }
    const { hydrate, keepClick } = prepareIsland(element, code);
    // What the bootstrap saw before this module arrived: a click on the island is replayed,
    // any other interaction with it hydrates it.
    for (const event of boot?.events ?? []) {
      if (!(event.target instanceof Node) || !element.contains(event.target)) continue;
      if (event.type === 'click') keepClick(event);
      else if (event.type !== 'scroll') hydrate();
    }
    const strategy = element.dataset.hydrate;
    if (strategy === 'load') hydrate();
    else if (strategy === 'visible') whenVisible(element, hydrate);
    else if (strategy !== 'interaction') whenIdle(hydrate);
  }
  if (boot) boot.events.length = 0;
}
