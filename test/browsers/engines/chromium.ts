// Chromium through playwright-core, on Debian's /usr/bin/chromium (or CHROMIUM_PATH).
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../e2e/support/chromium';
import type { Engine, EnginePage } from '../engine';

export async function launchChromium(): Promise<Engine> {
  // With the back/forward cache Playwright turns off by default: a page restored from it is a page
  // view the tracker must see (test/browsers/apps.ts), as Firefox and WebKit restore theirs.
  const browser = await chromium.launch({ ...chromiumLaunchOptions(), ignoreDefaultArgs: ['--disable-back-forward-cache'] });
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
        back: async () => void (await page.goBack()),
        forward: async () => void (await page.goForward()),
        click: (selector) => page.click(selector),
        close: () => page.close(),
      };
    },
    close: () => browser.close(),
  };
}
