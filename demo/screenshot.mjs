// Screenshots of the demo for the README: `npm run build && node demo/screenshot.mjs`.
// Starts its own stack on ephemeral ports, drives Debian's Chromium (CHROMIUM_PATH overrides),
// writes docs/demo-store.png, docs/demo-offline.png and docs/demo-key-rotation.png.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { repoRoot } from './stack.mjs';
import { startDemo } from './server.mjs';

const docs = join(repoRoot, 'docs');
await mkdir(docs, { recursive: true });
const demo = await startDemo({ port: 0, emulatorPort: 0 });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(demo.url);
  await page.waitForSelector('html[data-demo-ready="true"]');
  // Some traffic: the hero seen and clicked, the recommendations seen, one import under way.
  await page.waitForSelector('#recorded-log li[data-action="shown"]');
  await page.click('#hero button');
  await page.locator('#recommendations').scrollIntoViewIfNeeded();
  await page.waitForSelector('#recorded-log li[data-experience="Recommended For You"]');
  await page.click('[data-engage-b-id="rec-add-parka"]');
  await page.click('#start-import');
  await page.evaluate(() => window.Engage.flush());
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => /PROCESSING/.test(document.querySelector('#imports .import-status')?.textContent ?? ''), null, { timeout: 20_000 });
  await page.waitForFunction(() => document.querySelector('#delivered')?.textContent === document.querySelector('#recorded')?.textContent);
  await page.screenshot({ path: join(docs, 'demo-store.png') });

  await page.click('#toggle-offline');
  await page.click('#hero button');
  await page.click('#hero button');
  await page.evaluate(() => window.Engage.flush().catch(() => {}));
  await page.waitForFunction(() => /NetworkError/.test(document.querySelector('#status')?.textContent ?? ''));
  await page.screenshot({ path: join(docs, 'demo-offline.png') });
  await page.click('#toggle-offline');
  await page.click('#flush-now');
  await page.waitForFunction(() => document.querySelector('#queued')?.textContent === '0');

  await page.click('#rotate-key');
  await page.click('#hero button');
  await page.evaluate(() => window.Engage.flush().catch(() => {}));
  await page.waitForFunction(() => /401/.test(document.querySelector('#status')?.textContent ?? ''));
  await page.screenshot({ path: join(docs, 'demo-key-rotation.png') });
  console.log(`screenshots written to ${docs}`);
} finally {
  await browser.close();
  await demo.close();
}
