// One process of the conversion floor: reads the article files named on stdin (one per line),
// converts their bodies with the build's own unified pipeline, and prints the milliseconds spent.
import { readFileSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import { bodyOf } from '../../src/content/frontmatter.ts';
import { convertMarkdown } from '../../src/content/markdown.ts';

// Read as a stream: a synchronous read of a pipe fails with EAGAIN when the list outgrows its buffer (10,000 paths).
const files = (await text(process.stdin)).split('\n').filter(Boolean);
const bodies = files.map((file) => bodyOf(readFileSync(file, 'utf8')));
const started = performance.now();
for (const body of bodies) convertMarkdown(body);
process.stdout.write(`${(performance.now() - started).toFixed(1)}\n`);
