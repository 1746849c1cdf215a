// The public surface for site code: `import { defineSite, island } from 'ssg'`.
export { defineRoute, defineSite } from './render/site-definition.ts';
export type {
  DataSchema,
  Drawer,
  EditorOptions,
  FeedDefinition,
  GeneratedFile,
  GeneratedFilesContext,
  Head,
  HeadImage,
  MarkdownOptions,
  PageProps,
  RedirectRule,
  Route,
  RouteContext,
  RouteEntry,
  SiteDefinition,
  SiteI18n,
  SearchDefinition,
  SiteMeta,
} from './render/site-definition.ts';
export type { Article } from './content/article.ts';
export { defineCollection } from './content/collections.ts';
export type { CollectionDefinition, CollectionsOf, DataEntry } from './content/collections.ts';
export { SEARCH_BUNDLE_URL } from './search/search.ts';
export { island } from './runtime/island-server.tsx';
export type { Hydrate, IslandOptions } from './runtime/island-server.tsx';
export { paginate, listPage, pagePath, pageCount } from './content/pagination.ts';
export type { ListPage } from './content/pagination.ts';
export { groupByTag, tagGroup, tagSlug } from './content/tags.ts';
export type { TagGroup } from './content/tags.ts';
export type { PictureData } from './images/picture.ts';
