import type { TempSite } from './project.ts';

/** The basic fixture's site with `redirects` (TypeScript source of the map) added to its definition. */
export async function withRedirects(site: TempSite, redirects: string): Promise<void> {
  const source = await site.read('site/index.tsx');
  await site.write(
    'site/index.tsx',
    source.replace('export default defineSite({', `export default defineSite({\n  redirects: ${redirects},`),
  );
}
