// The public surface for site code: `import { defineSite, island } from 'ssg'`.
export { defineSite } from './site-definition.ts';
export type { DataSchema, FeedDefinition, GeneratedFile, GeneratedFilesContext, Head, HeadImage, PageProps, Route, RouteEntry, SiteDefinition, SiteMeta } from './site-definition.ts';
export type { Article } from './articles.ts';
export { island } from './runtime/island-server.tsx';
export type { Hydrate, IslandOptions } from './runtime/island-server.tsx';
export { paginate, listPage, pagePath, pageCount } from './pagination.ts';
export type { ListPage } from './pagination.ts';
export { groupByTag, tagSlug } from './tags.ts';
export type { TagGroup } from './tags.ts';
export type { PictureData } from './images/picture.ts';
