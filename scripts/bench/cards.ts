// The share cards of the article files named on stdin (one per line), drawn one after another in
// one process by the site's drawers, as each build helper draws them, with the site's fonts and brand from the site folder
// given as the argument. Prints the milliseconds of CPU (every thread of the process, so sharp's
// own threads count) and of wall time, after a first card that loads satori and the fonts, how
// many cards that was and their bytes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { parse } from 'yaml';
import { parseArticle } from '../../src/content/article-parser.ts';
import { shareDrawers, shareImages } from '../../site/share-image.tsx';

const root = process.argv[2]!;
const brand = (parse(readFileSync(path.join(root, 'content', 'site.yaml'), 'utf8')) as { brand: string }).brand;
// Read as a stream: a synchronous read of a pipe fails with EAGAIN when the list outgrows its buffer (10,000 paths).
const files = (await text(process.stdin)).split('\n').filter(Boolean);
const articles = files.map((file) =>
  parseArticle(
    { file: path.relative(root, file), text: readFileSync(file, 'utf8') },
    { now: new Date(), warn: () => {} },
  ),
);
const cards = shareImages(articles, brand, root);
const draw = (card: (typeof cards)[number]) => shareDrawers[card.draw!.drawer]!(card.draw!.input, { root });
await draw(cards[0]!);

const cpu = process.cpuUsage();
const started = performance.now();
let bytes = 0;
for (const card of cards.slice(1)) bytes += (await draw(card)).byteLength;
const used = process.cpuUsage(cpu);
process.stdout.write(
  `${((used.user + used.system) / 1000).toFixed(0)} ${(performance.now() - started).toFixed(0)} ${cards.length - 1} ${bytes}\n`,
);
