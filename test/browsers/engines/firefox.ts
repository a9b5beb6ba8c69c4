// Firefox ESR (Debian's firefox-esr) through puppeteer-core over WebDriver BiDi: no geckodriver,
// no downloaded build. Playwright cannot drive a stock Firefox (it needs its own patched one).
import puppeteer, { type Page } from 'puppeteer-core';
import { type Engine, type EnginePage, requireBinary } from '../engine';

/** @param prefs more Firefox preferences (say, Global Privacy Control turned on by its user). */
export async function launchFirefox(prefs: Record<string, unknown> = {}): Promise<Engine> {
  const executablePath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
  requireBinary(executablePath, 'Firefox ESR', 'apt-get update && apt-get install -y --no-install-recommends firefox-esr');
  // puppeteer makes a fresh temporary profile per launch and removes it on close.
  // The pref lets the page close itself: the close a user makes, with pagehide and keepalive
  // requests (WebDriver BiDi's browsingContext.close discards the tab without either).
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    extraPrefsFirefox: { 'dom.allow_scripts_to_close_windows': true, ...prefs },
  });
  // The window the browser opened with stays open and unused: with it, the browser outlives its last test tab.
  await browser.pages();
  return {
    name: 'firefox',
    version: (await browser.version()).replace(/^firefox\//i, 'Firefox '),
    async newPage(): Promise<EnginePage> {
      const page = await browser.newPage();
      return {
        goto: async (url) => void (await page.goto(url)),
        evaluate: (fn, arg) => page.evaluate(fn as never, arg),
        reload: async () => void (await page.reload()),
        back: () => traverse(page, -1),
        forward: () => traverse(page, 1),
        click: (selector) => page.click(selector),
        async close() {
          const closed = new Promise((resolve) => page.once('close', resolve));
          await page.evaluate(() => void setTimeout(() => window.close()));
          await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
          if (!page.isClosed()) throw new Error('Firefox: window.close() did not close the tab');
        },
      };
    },
    close: () => browser.close(),
  };
}

/**
 * WebDriver BiDi's history traversal, the back and forward buttons. Not `page.goBack()`: puppeteer
 * then waits for a navigation event that a same-document entry (a router's pushState) never
 * raises in Firefox, and times out after 30 s.
 */
function traverse(page: Page, delta: number): Promise<void> {
  return (page.mainFrame() as unknown as { browsingContext: { traverseHistory(delta: number): Promise<void> } }).browsingContext.traverseHistory(delta);
}
