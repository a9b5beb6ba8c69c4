// What test/browsers/pages/spy.js, loaded first by every page under test, saw: console messages,
// page errors, CSP violations, and whether the page came back from the back/forward cache.
import type { EnginePage } from './engine';

export interface Spied {
  console: string[];
  errors: string[];
  violations: string[];
  restoredFromCache: boolean;
  /** Why the engine did not restore the page from the back/forward cache, where it says (Chromium). */
  notRestoredReasons: string;
}

interface SpyGlobal extends Omit<Spied, 'notRestoredReasons'> {
  notRestoredReasons(): string;
}

export const spied = (page: EnginePage): Promise<Spied> =>
  page.evaluate(() => {
    const spy = (window as unknown as { spy: SpyGlobal }).spy;
    return {
      console: spy.console,
      errors: spy.errors,
      violations: spy.violations,
      restoredFromCache: spy.restoredFromCache,
      notRestoredReasons: spy.notRestoredReasons(),
    };
  });
