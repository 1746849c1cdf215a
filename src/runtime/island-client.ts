import type { ComponentType } from 'react';
import type { IslandOptions } from './island-server.tsx';

/** In the browser an island module's default export is the component itself; the loader hydrates it. */
export function island<Props extends object>(
  _name: string,
  Component: ComponentType<Props>,
  _options: IslandOptions = {},
): ComponentType<Props> {
  return Component;
}
