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
    calls: { method: string; experience: string | undefined; at?: number; uuid?: string | null }[];
    engageReady: boolean;
    // bench/pages/listing.html
    scrollDown(ms: number): Promise<void>;
    // test/browsers/pages/seen-page.js
    marks: Record<string, number>;
    mark(name: string): number;
    // test/browsers/pages/shadow-page.js
    removedButton?: HTMLElement;
    rerender(): void;
    shadowReady: boolean;
    // test/browsers/pages/experience-context.js
    experienceContext(cid: string): ExperienceContext;
    // test/browsers/pages/clock.js
    realNow(): number;
    setDeviceClock(ms: number): void;
    // test/browsers/pages/consent-page.js and fake-cmps.js, test/browsers/apps/react-consent
    traces(): Promise<{ databases: (string | undefined)[]; localStorage: string[]; sessionStorage: string[]; cookies: string }>;
    wipe(): Promise<boolean>;
    fakeCmp: { answer?(yes: boolean, status?: string): void; loaded?(): void; ready?: boolean };
    __tcfapi(command: string, version: number, callback: (data: object, success: boolean) => void): void;
    dataLayer: unknown[];
    gtag(...args: unknown[]): void;
    OneTrust: { IsAlertBoxClosed(): boolean };
    OnetrustActiveGroups: string;
    OptanonWrapper?: () => void;
    Cookiebot: { consented: boolean; declined: boolean; hasResponse: boolean; consent: Record<'necessary' | 'preferences' | 'statistics' | 'marketing', boolean> };
    setConsent(state: 'granted' | 'pending' | 'denied'): void;
    appReady: boolean;
    // test/browsers/pages/spy.js
    spy: { console: string[]; errors: string[]; violations: string[]; restoredFromCache: boolean; notRestoredReasons(): string };
    // test/e2e/demo/preload-calls.js
    beforeLoad: string;
    // bench/pages/tracker-bench.js
    bench: Record<string, (events: number) => Promise<object>>;
    benchReady: boolean;
  }
}
