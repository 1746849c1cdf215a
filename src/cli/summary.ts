import type { PageSizes, SummaryRow } from '../pipeline/build-result.ts';
import { formatBytes, formatMs, type Paint } from './terminal.ts';

/** Routes with more pages than this are shown as one row with the largest sizes. */
const GROUP_ABOVE = 8;

export function summaryRows(pages: readonly PageSizes[]): SummaryRow[] {
  const byPattern = new Map<string, PageSizes[]>();
  for (const page of pages) byPattern.set(page.pattern, [...(byPattern.get(page.pattern) ?? []), page]);
  const rows: SummaryRow[] = [];
  for (const [pattern, group] of byPattern) {
    if (group.length <= GROUP_ABOVE) {
      rows.push(
        ...group.map(({ route, htmlBytes, firstPaintJsGzip, jsGzip, cssGzip }) => ({
          route,
          htmlBytes,
          firstPaintJsGzip,
          jsGzip,
          cssGzip,
        })),
      );
      continue;
    }
    rows.push({
      route: `${pattern} (${group.length} pages, largest)`,
      htmlBytes: Math.max(...group.map((page) => page.htmlBytes)),
      firstPaintJsGzip: Math.max(...group.map((page) => page.firstPaintJsGzip)),
      jsGzip: Math.max(...group.map((page) => page.jsGzip)),
      cssGzip: Math.max(...group.map((page) => page.cssGzip)),
    });
  }
  return rows;
}

export function formatSummary(rows: readonly SummaryRow[], paint: Paint): string {
  const header = ['Route', 'HTML', 'JS at first paint', 'JS in all (gzip)', 'CSS (gzip)'];
  const cells = rows.map((row) => [
    row.route,
    formatBytes(row.htmlBytes),
    row.firstPaintJsGzip ? formatBytes(row.firstPaintJsGzip) : '-',
    row.jsGzip ? formatBytes(row.jsGzip) : '-',
    row.cssGzip ? formatBytes(row.cssGzip) : '-',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((cell) => cell[column]!.length)));
  const line = (cell: string[]) =>
    cell
      .map((text, column) => (column === 0 ? text.padEnd(widths[column]!) : text.padStart(widths[column]!)))
      .join('  ');
  return [paint.bold(line(header)), ...cells.map(line)].join('\n');
}

/** `1 article`, `2 articles`: a count and its noun, plural unless it is one. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** The line that ends a build: `Built 5 pages (1 article) into dist in 1.2 s · …`. */
export function formatBuilt(
  built: {
    pages: number;
    articles: number;
    outDir: string;
    durationMs: number;
    markdown: { converted: number; cached: number };
    unchanged: boolean;
    peakMb: number;
  },
  paint: Paint,
): string {
  const { converted, cached } = built.markdown;
  const markdown = converted > 0 || cached > 0 ? ` · Markdown: ${converted} converted, ${cached} from cache` : '';
  return `${paint.green('Built')} ${counted(built.pages, 'page')} (${counted(built.articles, 'article')}) into ${built.outDir} in ${formatMs(built.durationMs)}${markdown}${built.unchanged ? ' · output unchanged, nothing written' : ''} · peak memory ${built.peakMb} MB`;
}

export function formatTimings(timings: Record<string, number>, paint: Paint): string {
  return paint.dim(
    Object.entries(timings)
      .map(([stage, ms]) => `${stage} ${formatMs(ms)}`)
      .join(' · '),
  );
}
