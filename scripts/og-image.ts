// npm run og-image: draws the 1200×630 share image from content/site.yaml into site/public/og-image.jpg.
// Run it again after changing the brand or description.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { launchBrowser } from '../tests/helpers/browser.ts';

const site = parse(await readFile('content/site.yaml', 'utf8')) as { brand: string; description: string };
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const html = `<!doctype html><html><body style="margin:0">
<div style="width:1200px;height:630px;box-sizing:border-box;padding:88px 96px;display:flex;flex-direction:column;justify-content:space-between;
  font-family:system-ui,'DejaVu Sans',sans-serif;color:#fff;background:radial-gradient(900px 500px at 90% 0%,#0f6d62 0%,transparent 70%),linear-gradient(135deg,#0b1f33,#102c45)">
  <div style="display:flex;align-items:center;gap:24px;font-size:40px;font-weight:700">
    <svg width="72" height="72" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#35c2ad"/><path d="M9 10.5 16 22l7-11.5" fill="none" stroke="#04201c" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>
    ${escape(site.brand)}
  </div>
  <div style="font-size:62px;font-weight:800;line-height:1.1;max-width:980px">Non-custodial staking on infrastructure built to stay online</div>
  <div style="font-size:30px;color:#b9d3e2">Validating since 2022 · 99.9%+ uptime · Vienna, Austria</div>
</div></body></html>`;
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
await page.setContent(html);
await page.screenshot({ path: 'site/public/og-image.jpg', type: 'jpeg', quality: 88 });
await browser.close();
console.log('site/public/og-image.jpg written');
