// A Vite SPA that imports only `createTracker` from the packed package, built by the real Vite,
// served beside the real proxy and emulator, and opened in Chromium.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from '../../demo/stack.mjs';
import { chromiumLaunchOptions } from '../../demo/chromium.mjs';
import { installPacked } from '../support/packed';

const N = 30;
// What only the client or viewability code carries, and survives minification (paths, DOM names).
const CLIENT = ['/v1.0/data/fileimports/import/status', 'core-services/v1/campaigns'];
const VIEWABILITY = ['IntersectionObserver', 'data-engage-context'];

let dir: string;
let browser: Browser | undefined;
beforeAll(() => {
  ({ dir } = installPacked('vite'));
}, 60_000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Builds `main` as the app's entry with Vite's production defaults; returns the JS it emitted. */
async function buildApp(name: string, main: string): Promise<{ root: string; js: string }> {
  const root = join(dir, name);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>shop</title><script type="module" src="./main.js"></script>');
  writeFileSync(join(root, 'main.js'), main);
  await build({ root, logLevel: 'silent', configFile: false, build: { outDir: 'dist' } });
  const assets = join(root, 'dist/assets');
  const js = readdirSync(assets)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(assets, file), 'utf8'))
    .join('\n');
  return { root, js };
}

const TRACKER_APP = `import { createTracker } from 'engage-sdk';
const context = { cid: 'c-1', experience: 'Vite hero', svc_locale_id: '0', svc_variation_id: '1', audience_name: 'All', audience_id: 'a' };
const tracker = createTracker({ endpoint: '/engage', customerId: 'vite-user' });
for (let i = 0; i < ${N}; i++) tracker.shown(context, { b_id: 'slot-' + i });
tracker.flush().then(() => (window.done = true), (error) => (window.failed = String(error)));
`;

describe('a Vite app importing only createTracker', () => {
  it(`bundles no client or viewability code, and delivers ${N} events once through the proxy`, async () => {
    const app = await buildApp('tracker-only', TRACKER_APP);
    // The control: the same strings are there when the app imports the client and observe.
    const control = await buildApp(
      'control',
      `${TRACKER_APP}\nimport { createClient, observe } from 'engage-sdk';\nwindow.extra = [createClient({ endpoint: '/engage' }), observe];\n`,
    );
    for (const text of [...CLIENT, ...VIEWABILITY]) {
      expect(control.js, `the control build carries ${text}`).toContain(text);
      expect(app.js, `the tracker-only build has no ${text}`).not.toContain(text);
    }
    const bytes = gzipSync(app.js, { level: 9 }).length;
    console.log(
      `[vite] tracker-only app bundle: ${bytes} B gzip -9 (the app adds a few lines to createTracker); with client and observe: ${gzipSync(control.js, { level: 9 }).length} B`,
    );

    const stack = await startStack({ root: join(app.root, 'dist') });
    try {
      browser = await chromium.launch(chromiumLaunchOptions());
      const page = await browser.newPage();
      await page.goto(`${stack.url}/index.html`);
      await page.waitForFunction(() => (window as { done?: boolean; failed?: string }).done || (window as { failed?: string }).failed, undefined, { timeout: 20_000 });
      expect(await page.evaluate(() => (window as { failed?: string }).failed)).toBeUndefined();
      const received = (await (await fetch(`${stack.emulatorUrl}/_emulator/experience-events`)).json()) as { unique: number; duplicates: number };
      expect({ unique: received.unique, duplicates: received.duplicates }).toEqual({ unique: N, duplicates: 0 });
    } finally {
      await stack.close();
    }
  }, 120_000);
});
