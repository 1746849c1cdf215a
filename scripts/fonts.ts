// npm run fonts: copies the typeface from @fontsource-variable/inter into site/styles/fonts/, where
// the style sheet's @font-face finds it. The file is kept in the site (not read from
// node_modules at build time) so a copy of the site builds wherever the generator lives.
// Run it again after updating the package; tests/layout.browser.test.ts checks the copy is current.
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const packageDir = path.dirname(createRequire(import.meta.url).resolve('@fontsource-variable/inter/package.json'));
export const FONT_FILE = 'inter-latin-wght-normal.woff2';
const target = 'site/styles/fonts';

await mkdir(target, { recursive: true });
await copyFile(path.join(packageDir, 'files', FONT_FILE), path.join(target, FONT_FILE));
await copyFile(path.join(packageDir, 'LICENSE'), path.join(target, 'LICENSE-inter.txt'));
console.log(`${target}/${FONT_FILE} and its licence copied from @fontsource-variable/inter`);
