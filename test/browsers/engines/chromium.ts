// Chromium through playwright-core, on Debian's /usr/bin/chromium (or CHROMIUM_PATH).
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../../demo/chromium.mjs';
import type { Engine, EnginePage } from '../engine';

export async function launchChromium(): Promise<Engine> {
  // Playwright turns Chromium's back/forward cache off, and it is left off: whether Chromium then
  // restores a page is not deterministic here (a restore was seen once, "masked" otherwise), and
  // Firefox and WebKit prove the restored page view in every run (test/browsers/apps.ts).
  const browser = await chromium.launch(chromiumLaunchOptions());
  const context = await browser.newContext();
  return {
    name: 'chromium',
    version: `Chromium ${browser.version()}`,
    async newPage(): Promise<EnginePage> {
      const page = await context.newPage();
      return {
        goto: async (url) => void (await page.goto(url)),
        evaluate: (fn, arg) => page.evaluate(fn as never, arg),
        reload: async () => void (await page.reload()),
        // Until the navigation commits, not until "load": a page restored from the back/forward
        // cache fires no load event, and Playwright would wait for one for 30 s.
        back: async () => void (await page.goBack({ waitUntil: 'commit' })),
        forward: async () => void (await page.goForward({ waitUntil: 'commit' })),
        click: (selector) => page.click(selector),
        close: () => page.close(),
      };
    },
    close: () => browser.close(),
  };
}
