// The share cards of the article files named on stdin (one per line), drawn in one process as the
// build's files() draws them (four at a time), with the site's fonts and brand from the site folder
// given as the argument. Prints the milliseconds of CPU (every thread of the process, so the
// compression on libuv's threads counts) and of wall time, after a first card that loads the fonts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { parseArticle } from '../../src/content/articles.ts';
import { shareImages } from '../../site/share-image.tsx';

const root = process.argv[2]!;
const brand = (parse(readFileSync(path.join(root, 'content', 'site.yaml'), 'utf8')) as { brand: string }).brand;
const files = readFileSync(0, 'utf8').split('\n').filter(Boolean);
const articles = files.map((file) => parseArticle({ file: path.relative(root, file), text: readFileSync(file, 'utf8') }, { now: new Date(), warn: () => {} }));
const cards = shareImages(articles, brand, root);
await cards[0]!.render();

const cpu = process.cpuUsage();
const started = performance.now();
let next = 1;
await Promise.all(Array.from({ length: 4 }, async () => { while (next < cards.length) await cards[next++]!.render(); }));
const used = process.cpuUsage(cpu);
process.stdout.write(`${((used.user + used.system) / 1000).toFixed(0)} ${(performance.now() - started).toFixed(0)} ${cards.length - 1}\n`);
