import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { inspect } from 'node:util';

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

const reaped = new Set<ChildProcess>();
let reaping = false;

/**
 * Kills `child` (SIGKILL) if the worker ends while it still runs: a failed or timed-out suite, or
 * vitest tearing the worker down, must not leave a driver, a browser or an Xvfb display behind
 * beside the other engines' suites. Returns `child`. Playwright and puppeteer already do this
 * for the browsers they launch; this is for the processes the suites spawn themselves.
 */
export function reapOnExit<T extends ChildProcess>(child: T): T {
  reaped.add(child);
  child.once('exit', () => reaped.delete(child));
  if (!reaping) {
    reaping = true;
    const killAll = () => reaped.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL'));
    process.once('exit', killAll);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        killAll();
        process.exit(128 + ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const)[signal]);
      });
    }
  }
  return child;
}

/**
 * Prefixes every line the suite prints with its engine, `[firefox]  [engines] firefox | …`: the
 * three engines' suites run side by side, and their figure lines must stay one engine's apart
 * from another's whatever the reporter does with them (`grep '\[webkit\] '` keeps one engine's).
 * Called first in each `<engine>.test.ts`.
 */
export function prefixConsole(name: EngineName): void {
  const width = Math.max(...ENGINE_NAMES.map((engine) => engine.length)) + 2;
  const tag = `[${name}]`.padEnd(width + 1);
  for (const method of ['log', 'info', 'warn', 'error'] as const) {
    const write = console[method].bind(console);
    console[method] = (...args: unknown[]) =>
      write(
        args
          .map((arg) => (typeof arg === 'string' ? arg : inspect(arg)))
          .join(' ')
          .split('\n')
          .map((line) => tag + line)
          .join('\n'),
      );
  }
}
