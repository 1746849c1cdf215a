// A helper process that converts Markdown: the pool sends batches, it answers with the HTML.
import { convertMarkdown, type ConvertedMarkdown } from './markdown.ts';

export interface MarkdownBatch {
  batch: number;
  sources: string[];
}

export interface MarkdownBatchResult {
  batch: number;
  converted: ConvertedMarkdown[];
}

// The helper lives only as long as the build: when the channel to it closes (the build ended,
// or was killed, even by SIGKILL), it exits.
process.on('disconnect', () => process.exit(0));
if (!process.connected) process.exit(0);

process.on('message', ({ batch, sources }: MarkdownBatch) => {
  const converted = sources.map(convertMarkdown);
  if (process.connected) process.send!({ batch, converted } satisfies MarkdownBatchResult);
});
