// Firefox ESR (Debian's firefox-esr) through puppeteer-core over WebDriver BiDi: no geckodriver,
// no downloaded build. Playwright cannot drive a stock Firefox (it needs its own patched one).
import puppeteer from 'puppeteer-core';
import { type Engine, type EnginePage, requireBinary } from '../engine';

export async function launchFirefox(): Promise<Engine> {
  const executablePath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
  requireBinary(executablePath, 'Firefox ESR', 'apt-get update && apt-get install -y --no-install-recommends firefox-esr');
  // puppeteer makes a fresh temporary profile per launch and removes it on close.
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath, headless: true });
  let first = (await browser.pages())[0];
  return {
    name: 'firefox',
    version: (await browser.version()).replace(/^firefox\//i, 'Firefox '),
    async newPage(): Promise<EnginePage> {
      const page = first ?? (await browser.newPage());
      first = undefined;
      return {
        goto: async (url) => void (await page.goto(url)),
        evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
        reload: async () => void (await page.reload()),
        click: (selector) => page.click(selector),
        close: () => page.close(),
      };
    },
    close: () => browser.close(),
  };
}
