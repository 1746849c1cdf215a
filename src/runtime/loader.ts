// The only script a page with islands loads up front: it finds the islands and hydrates each
// when its strategy says so, fetching React and the island's code only then.
type IslandModule = { default: import('react').ComponentType<any> };
export type IslandLoaders = Record<string, () => Promise<IslandModule>>;

function whenIdle(run: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 200);
}

function whenVisible(element: HTMLElement, run: () => void): void {
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

export function start(loaders: IslandLoaders): void {
  for (const element of document.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = element.dataset.island ?? '';
    const load = loaders[name];
    if (!load) {
      console.error(`No code for island "${name}".`);
      continue;
    }
    let started = false;
    const hydrate = () => {
      if (started) return;
      started = true;
      Promise.all([load(), import('./hydrate.tsx')])
        .then(([module, { hydrateIsland }]) => hydrateIsland(element, module.default))
        .catch((error: unknown) => console.error(`Island "${name}" failed to load.`, error));
    };
    // A visitor reaching for a widget should not wait for its turn.
    for (const type of ['pointerover', 'focusin', 'touchstart']) {
      element.addEventListener(type, hydrate, { once: true, passive: true });
    }
    const strategy = element.dataset.hydrate;
    if (strategy === 'load') hydrate();
    else if (strategy === 'visible') whenVisible(element, hydrate);
    else whenIdle(hydrate);
  }
}
