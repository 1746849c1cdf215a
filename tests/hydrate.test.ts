import { describe, expect, it } from 'vitest';
import { hydrateIsland } from '../src/runtime/hydrate.tsx';

describe('hydrateIsland', () => {
  it("fails with 'Root element not found' when the element is missing", () => {
    expect(() => hydrateIsland(null, () => null)).toThrow(new Error('Root element not found'));
  });

  it("fails with 'Root element not found' when the element has left the document", () => {
    const detached = { isConnected: false } as HTMLElement;
    expect(() => hydrateIsland(detached, () => null)).toThrow('Root element not found');
  });
});
