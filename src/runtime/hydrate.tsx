import { Component, useEffect, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';

export const ISLAND_ERROR_TEXT = 'Unexpected Application Error!';

/** A widget that throws shows a message in its place instead of taking the page down. */
class IslandErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="island-error" role="alert">
        <h2>{ISLAND_ERROR_TEXT}</h2>
        <p>{this.state.error.message}</p>
      </div>
    );
  }
}

function MarkHydrated({ element, onHydrated }: { element: HTMLElement; onHydrated: () => void }) {
  useEffect(() => {
    element.dataset.hydrated = 'true';
    onHydrated();
  }, [element, onHydrated]);
  return null;
}

/**
 * Hydrates the server-rendered HTML of one island in place; resolves once it is live. The element
 * must still be in the document: a script may have removed it between the page load and the
 * island's turn.
 */
export function hydrateIsland(element: HTMLElement | null, Island: ComponentType<any>): Promise<void> {
  if (!element?.isConnected) throw new Error('Root element not found');
  const props: object = JSON.parse(element.dataset.props ?? '{}');
  return new Promise((resolve) => {
    hydrateRoot(
      element,
      <IslandErrorBoundary>
        <Island {...props} />
        <MarkHydrated element={element} onHydrated={resolve} />
      </IslandErrorBoundary>,
      { identifierPrefix: `i${element.dataset.uid}-` },
    );
  });
}
