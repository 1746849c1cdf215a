// A helper process that converts Markdown: the pool sends batches, it answers with the HTML.
import { markdownToHtml } from './markdown.ts';

export interface MarkdownBatch {
  batch: number;
  sources: string[];
}

export interface MarkdownBatchResult {
  batch: number;
  html: string[];
}

process.on('message', ({ batch, sources }: MarkdownBatch) => {
  process.send!({ batch, html: sources.map(markdownToHtml) } satisfies MarkdownBatchResult);
});
process.on('disconnect', () => process.exit(0));
