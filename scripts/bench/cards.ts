// The share cards of the article files named on stdin (one per line), drawn one after another in
// one process by the site's drawers, as each build helper draws them, with the site's fonts and brand from the site folder
// given as the argument. Prints the milliseconds of CPU (every thread of the process, so sharp's
// own threads count) and of wall time, after a first card that loads satori and the fonts, how
// many cards that was and their bytes. Then the floor of a card, as many times: sharp alone drawing
// one fixed 1200×630 text layer (laid out and rasterised once, before timing) over the same cached
// backdrop and encoding it, by the site's own code; its CPU and wall milliseconds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { parse } from 'yaml';
import { parseArticle } from '../../src/content/article-parser.ts';
import { createElement } from 'react';
import satori from 'satori';
import sharp from 'sharp';
import { CARD_FONTS, CARD_SIZE, CardText, TEXT_AREA } from '../../site/share/card.tsx';
import { overBackdrop, shareDrawers, shareImages } from '../../site/share-image.tsx';

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
const wall = performance.now() - started;

// The floor: the text of the first card, laid out over the whole card's size and rasterised once.
const fonts = CARD_FONTS.map(({ file, ...font }) => ({
  ...font,
  data: readFileSync(path.join(root, 'site/share/fonts', file)),
}));
const first = cards[0]!.draw!.input as { title: string; date: string };
const fixed = createElement(
  'div',
  { style: { display: 'flex', padding: `${TEXT_AREA.top}px ${TEXT_AREA.left}px` } },
  createElement(CardText, { title: first.title, date: first.date }),
);
const layer = await sharp(Buffer.from(await satori(fixed, { ...CARD_SIZE, fonts })))
  .ensureAlpha()
  .raw()
  .toBuffer();
const floorCard = () =>
  overBackdrop(brand, root, { input: layer, raw: { ...CARD_SIZE, channels: 4 }, left: 0, top: 0 });
await floorCard();
const floorCpu = process.cpuUsage();
const floorStarted = performance.now();
for (let count = 1; count < cards.length; count++) await floorCard();
const floorUsed = process.cpuUsage(floorCpu);
process.stdout.write(
  `${[used, floorUsed].map((cpu) => ((cpu.user + cpu.system) / 1000).toFixed(0)).join(' ')} ${wall.toFixed(0)} ${(performance.now() - floorStarted).toFixed(0)} ${cards.length - 1} ${bytes}\n`,
);
