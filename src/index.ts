// The public surface for site code: `import { defineSite, island } from 'ssg'`.
export { defineSite } from './site-definition.ts';
export type { DataSchema, FeedDefinition, Head, PageProps, Route, RouteEntry, SiteDefinition, SiteMeta } from './site-definition.ts';
export type { Article } from './articles.ts';
export { island } from './runtime/island-server.tsx';
export type { Hydrate, IslandOptions } from './runtime/island-server.tsx';
export type { PictureData } from './images/picture.ts';
