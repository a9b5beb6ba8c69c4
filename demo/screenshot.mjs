// Screenshots of the demo for the README: `npm run build && node demo/screenshot.mjs [inspect]`.
// Starts its own stack on ephemeral ports, drives Debian's Chromium (CHROMIUM_PATH overrides),
// writes docs/demo-store.png, docs/demo-offline.png and docs/demo-key-rotation.png; with `inspect`,
// only docs/demo-inspect.png (the inspection mode).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from './chromium.mjs';
import { repoRoot } from './stack.mjs';
import { startDemo } from './server.mjs';

const docs = join(repoRoot, 'docs');
await mkdir(docs, { recursive: true });
const demo = await startDemo({ port: 0, emulatorPort: 0 });
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await (process.argv[2] === 'inspect' ? inspectShot(page) : storeShots(page));
} finally {
  await browser.close();
  await demo.close();
}

/** The store, then offline, then a key rotation. */
async function storeShots(page) {
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
}

/** The inspection mode: the hero counted and clicked, the recommendations half-seen, one request refused. */
async function inspectShot(page) {
  await page.goto(`${demo.url}?engage-inspect`);
  const label = (experience) => page.locator(`engage-inspect .outline[data-experience="${experience}"] .label`);
  await label('Winter Sale Hero').filter({ hasText: 'counted at' }).waitFor();
  await page.click('#hero button');
  await page.evaluate(() => window.Engage.flush());
  await page.click('#toggle-offline');
  await page.click('#hero button');
  await page.evaluate(() => window.Engage.flush().catch(() => {}));
  await page.mouse.wheel(0, 240);
  await label('Recommended For You').filter({ hasText: 'less than half' }).waitFor();
  await page.locator('engage-inspect td[data-state="refused"]').first().waitFor();
  await page.screenshot({ path: join(docs, 'demo-inspect.png') });
  await page.click('#toggle-offline');
  console.log(`screenshot written to ${join(docs, 'demo-inspect.png')}`);
}
