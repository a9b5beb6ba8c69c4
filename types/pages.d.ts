// The globals that the pages of the tests, the benches and the demo set on `window` for their
// drivers (Playwright, puppeteer, WebDriver) to read with evaluate(), and `Engage`, the script
// tag's global (src/global.ts). For the type check of those pages only (tsconfig.js.json).
import type {} from '../src/global.ts';
import type { ExperienceContext, Tracker } from '../src/index.ts';

declare global {
  interface Window {
    // test/browsers/pages/tracker-page.js
    engageErrors: unknown[];
    tracker: Tracker;
    startTracker(options?: object, storage?: string): void;
    experience(n?: number): ExperienceContext;
    record(count: number, action?: 'shown' | 'clicked'): (string | undefined)[];
    harnessReady: boolean;
    // test/browsers/pages/script-tag-page.js
    visibleAt: number | undefined;
    seenAt: number;
    calls: { method: string; experience: string | undefined; at: number }[];
    engageReady: boolean;
    // test/browsers/pages/clock.js
    realNow(): number;
    setDeviceClock(ms: number): void;
    // test/browsers/pages/spy.js
    spy: { console: string[]; errors: string[]; violations: string[]; restoredFromCache: boolean; notRestoredReasons(): string };
    // test/e2e/demo/preload-calls.js
    beforeLoad: string;
    // bench/pages/tracker-bench.js
    bench: Record<string, (events: number) => Promise<object>>;
    benchReady: boolean;
  }
}
