// npm run fonts: copies the typefaces the site ships from their packages, so a copy of the site
// builds wherever the generator lives (nothing is read from node_modules at build time). Run it
// again after updating the packages; tests/layout.browser.test.ts checks the page font is current.
// - the pages' Inter (variable, WOFF2) from @fontsource-variable/inter into site/styles/fonts/,
//   where the style sheet's @font-face finds it;
// - the share card's Inter (static TTF, 400 and 700: Latin, Greek, Cyrillic; satori reads no WOFF2
//   and no variable font) from @expo-google-fonts/inter into site/share/fonts/.
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));
export const FONT_FILE = 'inter-latin-wght-normal.woff2';

const copies: Array<[from: string, to: string]> = [
  [path.join(packageDir('@fontsource-variable/inter'), 'files', FONT_FILE), path.join('site/styles/fonts', FONT_FILE)],
  [path.join(packageDir('@fontsource-variable/inter'), 'LICENSE'), 'site/styles/fonts/LICENSE-inter.txt'],
  [
    path.join(packageDir('@expo-google-fonts/inter'), '400Regular', 'Inter_400Regular.ttf'),
    'site/share/fonts/inter-400.ttf',
  ],
  [path.join(packageDir('@expo-google-fonts/inter'), '700Bold', 'Inter_700Bold.ttf'), 'site/share/fonts/inter-700.ttf'],
  [path.join(packageDir('@expo-google-fonts/inter'), 'LICENSE_FONT'), 'site/share/fonts/LICENSE-inter.txt'],
];
for (const [from, to] of copies) {
  await mkdir(path.dirname(to), { recursive: true });
  await copyFile(from, to);
  console.log(`${to} copied from ${path.relative(process.cwd(), from)}`);
}
