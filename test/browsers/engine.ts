import { existsSync } from 'node:fs';

// The driver seam: what a browser scenario needs from an engine, and nothing more, so one
// description runs on Playwright (Chromium), puppeteer over WebDriver BiDi (Firefox) and W3C
// WebDriver (WebKitGTK). Network loss is not here on purpose: WebDriver has no offline switch,
// so every engine loses the network the same way, at the site (see stack.ts).

export type EngineName = 'chromium' | 'firefox' | 'webkit';
export const ENGINE_NAMES: readonly EngineName[] = ['chromium', 'firefox', 'webkit'];

/** One tab. Every tab of an engine shares one profile, so they share IndexedDB and Web Locks. */
export interface EnginePage {
  goto(url: string): Promise<void>;
  /** Runs `fn(arg)` in the page (serialized: it must not close over anything) and awaits its result. */
  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T>;
  reload(): Promise<void>;
  /** The browser's back and forward buttons (a same-document entry or another document). */
  back(): Promise<void>;
  forward(): Promise<void>;
  /** A real click (pointer events at the element's centre, scrolled into view if needed). */
  click(selector: string): Promise<void>;
  /** Closes the tab the way a user does: pagehide/visibilitychange run, nothing waits for them. */
  close(): Promise<void>;
}

export interface Engine {
  name: EngineName;
  /** Browser name and version as the engine reports it. */
  version: string;
  /** A new tab (the first call may return the window the browser opened with). */
  newPage(): Promise<EnginePage>;
  /** Ends the browser and every process started for it. */
  close(): Promise<void>;
}

/**
 * The tabs a suite opens on `engine()`, so each scenario can close what it left open
 * (`closeAll` in `afterEach`) while a scenario closes one itself the way a user does (`close`).
 */
export function openedPages(engine: () => Engine) {
  let pages: EnginePage[] = [];
  return {
    open: async (): Promise<EnginePage> => {
      const page = await engine().newPage();
      pages.push(page);
      return page;
    },
    close: async (page: EnginePage): Promise<void> => {
      pages = pages.filter((p) => p !== page);
      await page.close();
    },
    closeAll: async (): Promise<void> => {
      await Promise.all(pages.map((page) => page.close().catch(() => {})));
      pages = [];
    },
  };
}

/** Starts an engine by name; fails (never skips) with the install command when its binary is missing. */
export async function launchEngine(name: EngineName): Promise<Engine> {
  switch (name) {
    case 'chromium':
      return (await import('./engines/chromium')).launchChromium();
    case 'firefox':
      return (await import('./engines/firefox')).launchFirefox();
    case 'webkit':
      return (await import('./engines/webkit')).launchWebKit();
  }
}

/** Polls `read` until `done` holds, or fails after `timeoutMs` with the last value seen. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function requireBinary(path: string, what: string, install: string): void {
  if (!existsSync(path)) {
    throw new Error(
      `${what} not found at ${path}. Install it with \`${install}\` (or run \`bash scripts/ensure-test-deps.sh\` as root). Browser tests are never skipped.`,
    );
  }
}
