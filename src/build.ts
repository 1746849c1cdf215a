import path from 'node:path';
import { Buffer } from 'node:buffer';
import { parseArticles, readArticleSources, type Article } from './articles.ts';
import { ASSETS_DIR, bundleClient, type ClientBundle } from './bundle-client.ts';
import { bundleServer } from './bundle-server.ts';
import { parseDataFiles, readDataFiles } from './data.ts';
import { SsgError } from './errors.ts';
import { notFoundRules } from './host-rules.ts';
import { markdownToHtml } from './markdown.ts';
import { writeOutputAtomically, type OutputFile } from './output.ts';
import { projectAt, relativeToRoot, type Project } from './project.ts';
import { renderDocument } from './render.ts';
import { expandRoutes, type PageJob } from './routes.ts';
import type { PageSizes } from './summary.ts';
import { loadTemplate } from './template.ts';

export interface BuildOptions {
  root: string;
  /** The output folder, absolute or relative to root. */
  outDir: string;
  /** Overrides `baseUrl` of content/site.yaml. */
  baseUrl?: string;
  drafts?: boolean;
  /** The build time; articles without a date get it. */
  now?: Date;
  warn?: (message: string) => void;
}

export interface BuildResult {
  outDir: string;
  pages: PageSizes[];
  articles: number;
  timings: Record<string, number>;
  durationMs: number;
}

/** `https://example.com/` → `https://example.com`; anything but an absolute http(s) origin is refused. */
export function normalizeBaseUrl(value: unknown, source: string): string {
  const fail = (why: string) => new SsgError('BaseUrlInvalid', `The base URL ${why}.`, { file: source });
  if (typeof value !== 'string' || value === '') throw fail('is not set');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail(`"${value}" is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw fail(`"${value}" is not http or https`);
  if (url.pathname !== '/' || url.search || url.hash) throw fail(`"${value}" has a path; give the origin only`);
  return url.origin;
}

function timer() {
  const timings: Record<string, number> = {};
  let last = performance.now();
  return {
    timings,
    lap(stage: string) {
      const now = performance.now();
      timings[stage] = (timings[stage] ?? 0) + now - last;
      last = now;
    },
  };
}

/** The base URL: the command line's, else `baseUrl` of the site config. */
export function resolveBaseUrl(project: Project, data: Record<string, unknown>, override: string | undefined): string {
  const siteConfig = data[project.siteConfigName] as { baseUrl?: unknown } | undefined;
  const configFile = `content/${project.siteConfigName}.yaml`;
  if (!override && !siteConfig) {
    throw new SsgError('SiteConfigMissing', `${configFile} is missing, and no --base-url was given.`);
  }
  return normalizeBaseUrl(override ?? siteConfig?.baseUrl, override ? '--base-url' : configFile);
}

export function convertMarkdown(articles: readonly Article[]): void {
  for (const article of articles) article.html = markdownToHtml(article.markdown);
}

export function assetFiles(client: ClientBundle): OutputFile[] {
  return client.assets.map((asset) => ({ path: asset.path, contents: asset.contents }));
}

/** Files for static hosts beside the pages (the not-found rules). */
export function hostFiles(jobs: readonly PageJob[]): OutputFile[] {
  const rules = notFoundRules(jobs);
  return rules ? [{ path: '_redirects', contents: rules }] : [];
}

export async function loadArticles(project: Project, options: { drafts: boolean; now: Date; warn: (m: string) => void }): Promise<Article[]> {
  const sources = await readArticleSources(project.root, project.articlesDir);
  const articles = parseArticles(sources, { now: options.now, warn: options.warn });
  return articles.filter((article) => options.drafts || !article.draft);
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const clock = timer();
  const project = projectAt(path.resolve(options.root));
  const outDir = path.resolve(project.root, options.outDir);
  const now = options.now ?? new Date();
  const warn = options.warn ?? (() => {});

  const [shell, dataSources, articles, server, client] = await Promise.all([
    loadTemplate(project.template, relativeToRoot(project, project.template)),
    readDataFiles(project.root, project.contentDir),
    loadArticles(project, { drafts: options.drafts ?? false, now, warn }),
    bundleServer(project),
    bundleClient(project, path.join(outDir, ASSETS_DIR)),
  ]);
  clock.lap('load & bundle');

  const site = server.module.site;
  const data = parseDataFiles(dataSources, (site.schemas ?? {}) as Record<string, never>);
  const baseUrl = resolveBaseUrl(project, data, options.baseUrl);
  site.check?.(data, warn);
  clock.lap('data');

  convertMarkdown(articles);
  clock.lap('markdown');

  const jobs = expandRoutes(site, { articles, data });
  const context = { server: server.module, client, shell, articles, data, baseUrl, now, root: project.root };
  const files: OutputFile[] = [...assetFiles(client)];
  const pages: PageSizes[] = [];
  for (const job of jobs) {
    const document = renderDocument(job, context);
    const contents = Buffer.from(document.html);
    files.push({ path: job.outputPath, contents });
    const assets = client.assetsFor(document.islands);
    const sum = (urls: string[]) => urls.reduce((total, url) => total + client.gzipSize(url), 0);
    pages.push({
      route: job.path,
      pattern: job.route.path,
      htmlBytes: contents.length,
      jsGzip: sum(assets.js),
      cssGzip: sum(assets.css),
    });
  }
  files.push(...hostFiles(jobs));
  clock.lap('render');

  await writeOutputAtomically(outDir, files, project.publicDir);
  clock.lap('write');

  return { outDir, pages, articles: articles.length, timings: clock.timings, durationMs: performance.now() - started };
}
