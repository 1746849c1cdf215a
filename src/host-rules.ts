import type { PageJob } from './routes.ts';

/**
 * Rules for static hosts that only know the root 404 page (Netlify's `_redirects` format): a
 * missing path under a folder with its own 404 page gets that page, with status 404. Hosts that
 * look for the nearest 404.html up the path (Cloudflare Pages, `preview`) need no rule.
 */
export function notFoundRules(jobs: readonly PageJob[]): string | undefined {
  const nested = jobs
    .filter((job) => job.notFound && job.outputPath.includes('/'))
    // Deepest first: the first matching rule wins.
    .sort((a, b) => b.outputPath.split('/').length - a.outputPath.split('/').length);
  if (nested.length === 0) return undefined;
  return nested.map((job) => `/${job.outputPath.replace(/\/404\.html$/, '')}/*  /${job.outputPath}  404`).join('\n') + '\n';
}
