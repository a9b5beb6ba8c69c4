// The tracker's browser scenarios, written once and run in every engine through the driver seam:
// real browser, real proxy, real emulator on 127.0.0.1. Each scenario checks what was delivered
// against what the page recorded (same UUIDs, each once) and adds a row to the engine's figures,
// printed when the engine is done so they can be quoted.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type Engine, type EngineName, type EnginePage, openedPages, until } from './engine';
import { withEngineAndStack, type TestStack } from './stack';

interface Row {
  scenario: string;
  delivered: number;
  recorded: number;
  duplicates: number;
  /** From the moment delivery was possible (recording done, or the fault lifted) to the last event at the emulator. */
  ms: number;
  note?: string;
}

type Win = Window & {
  harnessReady?: boolean;
  startTracker(options: unknown, storage?: string): void;
  record(count: number, action: string): string[];
  tracker: { flush(): Promise<void> };
  engageErrors: Array<{ name: string }>;
};

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
// The browsers run in Kathmandu's zone (vitest.browsers.config.ts): +05:45, seconds east.
const KATHMANDU = 20_700;

export function describeEngine(name: EngineName): void {
  describe(name, () => {
    let engine: Engine;
    let stack: TestStack;
    const pages = openedPages(() => engine);
    let namespace = '';
    const rows: Row[] = [];
    const started = Date.now();

    withEngineAndStack(
      name,
      (started, at) => ((engine = started), (stack = at)),
      () => {
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        const lines = rows.map(
          (row) => `[engines] ${name} | ${row.scenario} | ${row.delivered}/${row.recorded} | ${row.duplicates} dup | ${row.ms} ms${row.note ? ` | ${row.note}` : ''}`,
        );
        return [`[engines] ${name}: ${engine?.version}, suite ${seconds} s`, ...lines];
      },
    );
    beforeEach(async (context) => {
      // A queue per scenario: the profile (and its IndexedDB) lives as long as the engine.
      namespace = context.task.name.replace(/\W+/g, '-').slice(0, 40);
      stack.down = false;
      stack.arrivals.length = 0;
      await stack.admin('faults', { method: 'DELETE' });
      await stack.admin('reset', { body: {} });
    });
    afterEach(async () => {
      stack.down = false;
      await pages.closeAll();
    });

    const newPage = pages.open;
    const closePage = pages.close;
    const openTracker = async (page: EnginePage, options: Record<string, unknown> = {}, storage?: 'missing' | 'hang') => {
      await page.goto(`${stack.url}/test/browsers/pages/tracker.html`);
      await until(() => page.evaluate(() => (window as unknown as Win).harnessReady === true), Boolean, 15_000, 'the harness page');
      await page.evaluate(([o, s]) => (window as unknown as Win).startTracker(o, s ?? undefined), [{ namespace, ...options }, storage ?? null] as const);
    };
    const record = (page: EnginePage, count: number, action: 'shown' | 'clicked' = 'shown') =>
      page.evaluate(([n, a]) => (window as unknown as Win).record(n, a), [count, action] as const);
    const flush = (page: EnginePage) =>
      page.evaluate(() =>
        (window as unknown as Win).tracker.flush().then(
          () => 'ok',
          (error: Error) => error.name,
        ),
      );
    const errorNames = (page: EnginePage) => page.evaluate(() => (window as unknown as Win).engageErrors.map((e) => e.name));

    /** Waits until the emulator holds `ids` (each at least once), and checks it holds nothing else. */
    async function delivered(scenario: string, ids: string[], since: number, timeoutMs = 45_000, note?: string): Promise<Row> {
      expect(new Set(ids).size).toBe(ids.length);
      const { unique } = await until(
        () => stack.received(),
        (r) => r.unique >= ids.length,
        timeoutMs,
        `${ids.length} events at the emulator`,
      );
      const ms = Date.now() - since;
      const { events, duplicates } = await stack.received();
      expect(unique).toBe(ids.length);
      expect(new Set(events.map((event) => event.svc_event_uuid))).toEqual(new Set(ids));
      const row = { scenario, delivered: unique, recorded: ids.length, duplicates, ms, note };
      rows.push(row);
      return row;
    }

    test('the upstream shape: UUID v4, epoch seconds, offset seconds east, platform, context', async () => {
      const page = await newPage();
      await openTracker(page);
      const [shown] = await record(page, 1);
      const [clicked] = await record(page, 1, 'clicked');
      const since = Date.now();
      expect(await flush(page)).toBe('ok');
      await delivered('upstream shape', [shown!, clicked!], since);
      const { events } = await stack.received();
      expect(events.map((event) => event.svc_event_uuid)).toEqual([shown, clicked]);
      for (const event of events) {
        expect(event.svc_event_uuid).toMatch(UUID_V4);
        expect(Number.isInteger(event.event_time) && Math.abs(event.event_time - Date.now() / 1000) < 60).toBe(true);
        expect(event.user_timezone_offset).toBe(KATHMANDU);
        expect(event).toMatchObject({ customer_id: 'user-1', platform: 'web' });
      }
      expect(events[1]).toMatchObject({
        action: 'SVC_PERSONALIZATION_MESSAGE_CLICKED',
        attributes: { cid: 'cid-0', experience: 'Experience 0', svc_variation_id: '2', b_id: 'Buy', type: 'Web Personalization' },
      });
    });

    test('null and undefined for optional arguments mean "not given": every call recorded and delivered', async () => {
      const page = await newPage();
      // onError: undefined and null options, as loose JavaScript callers pass them.
      await openTracker(page, { customerId: 'user-null', onError: undefined, batchSize: null, flushInterval: null });
      const ids = await page.evaluate(async () => {
        const w = window as unknown as Win & {
          tracker: { shown(c: unknown, a?: unknown): string; clicked(c: unknown, a?: unknown): string; identify(id: unknown): void };
          experience(n: number): unknown;
        };
        const context = w.experience(1);
        const recorded = [w.tracker.shown(context, null), w.tracker.shown(context, undefined), w.tracker.clicked(context, null), w.tracker.clicked(context, undefined)];
        w.tracker.identify(null);
        await w.tracker.flush();
        return recorded;
      });
      const since = Date.now();
      await delivered('null/undefined arguments', ids, since);
      const { events } = await stack.received();
      expect(events.every((event) => event.customer_id === 'user-null' && event.attributes.cid === 'cid-1')).toBe(true);
    });

    test('reload while the upstream fails: 200 of 200 delivered after it recovers', async () => {
      await stack.admin('faults', { body: { ratio: 1, statuses: [500] } });
      const page = await newPage();
      await openTracker(page);
      const ids = await record(page, 200);
      // Delivery has failed at least once before the reload.
      await until(
        () => errorNames(page),
        (names) => names.includes('HttpError'),
        15_000,
        'an HttpError',
      );
      await page.reload();
      await stack.admin('faults', { method: 'DELETE' });
      const since = Date.now();
      await openTracker(page);
      const row = await delivered('reload while upstream fails', ids, since);
      // The page that went away during the outage left its events to the next one, not to the proxy's retries.
      expect(row.duplicates).toBe(0);
    });

    test('proxy down, then back: everything recorded meanwhile is delivered', async () => {
      const page = await newPage();
      await openTracker(page);
      stack.down = true;
      const ids = await record(page, 50);
      await until(
        () => errorNames(page),
        (names) => names.includes('NetworkError'),
        15_000,
        'a NetworkError',
      );
      expect((await stack.received()).unique).toBe(0);
      stack.down = false;
      // No `online` event comes (the browser was never offline): the tracker's own backoff brings it back.
      await delivered('proxy down, then back', ids, Date.now(), 60_000);
    });

    test('a page closed right after recording, requests in flight: it delivers what it recorded itself', async () => {
      // Slow upstream: what the closing page sends is still in flight when its tab is gone.
      await stack.admin('faults', { body: { latencyMs: 400 } });
      const first = await newPage();
      await openTracker(first, { flushInterval: 60_000, batchSize: 1_000 });
      // The tracker's start-up delivery is done, so only the close can send what comes next.
      expect(await flush(first)).toBe('ok');
      const ids = await record(first, 40);
      // A user's pace: by now IndexedDB has committed the events in every engine.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const closedAt = Date.now();
      const early = stack.arrivals.length;
      await closePage(first);
      // What the closing page sent itself (pagehide/visibilitychange + keepalive), before any other page
      // runs: no other page is open, so waiting for all of it (up to 15 s, for a loaded machine) credits
      // nothing to anyone else.
      let byClosingPage = 0;
      let lastAt = closedAt;
      for (const end = Date.now() + 15_000; byClosingPage < ids.length && Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 50))) {
        const { unique } = await stack.received();
        if (unique > byClosingPage) [byClosingPage, lastAt] = [unique, Date.now()];
      }
      const note = `${byClosingPage}/40 by the closing page itself (${stack.arrivals.length - early} request(s))`;
      // Whatever happens, the next page delivers the rest: nothing is lost.
      const next = await newPage();
      await openTracker(next);
      const row = await delivered('page closed after recording', ids, closedAt, 45_000, note);
      if (byClosingPage === ids.length) row.ms = lastAt - closedAt;
      // And the closing page did not leave them waiting for a next visit that may never come,
      // nor sent them twice (beacon and fetch).
      expect(byClosingPage).toBe(ids.length);
      expect(row.duplicates).toBe(0);
    });

    test('4 tabs recording 250 each at once: 1,000 delivered, none twice', async () => {
      const tabs = [];
      for (let i = 0; i < 4; i++) {
        const page = await newPage();
        await openTracker(page);
        tabs.push(page);
      }
      const ids = (
        await Promise.all(
          tabs.map(async (page) => {
            const mine: string[] = [];
            for (let i = 0; i < 5; i++) {
              mine.push(...(await record(page, 50)));
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
            return mine;
          }),
        )
      ).flat();
      const row = await delivered('4 tabs × 250', ids, Date.now(), 45_000);
      row.note = `${stack.arrivals.length} requests`;
      // Web Locks serialize the tabs' deliveries, and nothing failed: a duplicate here is a bug.
      expect(row.duplicates).toBe(0);
    });

    test('30% upstream faults (500/503/429 with Retry-After/reset): all delivered', async () => {
      await stack.admin('faults', { body: { ratio: 0.3, statuses: [500, 503, 429, 'reset'], retryAfterSeconds: 1, seed: 7 } });
      const page = await newPage();
      await openTracker(page, { maxRequestBytes: 8_000 });
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        ids.push(...(await record(page, 50)));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const row = await delivered('30% upstream faults', ids, Date.now(), 90_000);
      const { requests } = await stack.admin<{ requests: Array<{ fault: boolean }> }>('requests');
      const injected = requests.filter((entry) => entry.fault).length;
      // The faults really happened, or this proves nothing.
      expect(injected).toBeGreaterThan(0);
      row.note = `${injected} of ${requests.length} upstream requests failed`;
    });

    test('IndexedDB missing: delivered from memory, StorageError reported', async () => {
      const page = await newPage();
      await openTracker(page, {}, 'missing');
      const ids = await record(page, 30);
      const since = Date.now();
      expect(await flush(page)).toBe('ok');
      await delivered('IndexedDB missing', ids, since);
      expect(await errorNames(page)).toContain('StorageError');
    });

    test('IndexedDB hanging on open: after storageTimeout, delivered from memory', async () => {
      const page = await newPage();
      await openTracker(page, { storageTimeout: 300 }, 'hang');
      const ids = await record(page, 30);
      const since = Date.now();
      expect(await flush(page)).toBe('ok');
      await delivered('IndexedDB hanging on open', ids, since);
      expect(await errorNames(page)).toContain('StorageError');
    });

    test('IndexedDB failing at runtime (quota): what was stored and what came after are all delivered', async () => {
      await stack.admin('faults', { body: { ratio: 1, statuses: [503], retryAfterSeconds: 1 } });
      const page = await newPage();
      await openTracker(page);
      const before = await record(page, 20);
      await until(
        () => errorNames(page),
        (names) => names.includes('HttpError'),
        15_000,
        'an HttpError',
      );
      await page.evaluate(() => {
        IDBObjectStore.prototype.put = () => {
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        };
      });
      const after = await record(page, 20);
      await stack.admin('faults', { method: 'DELETE' });
      await delivered('IndexedDB quota at runtime', [...before, ...after], Date.now());
      expect(await errorNames(page)).toContain('StorageError');
    });

    test('script tag with data-engage-context: an impression after 1 s in view, a click with b_id', async () => {
      type TagWin = Window & { engageReady?: boolean; visibleAt?: number; calls: Array<{ method: string; experience: string; at: number }>; engageErrors: string[] };
      const page = await newPage();
      await page.goto(`${stack.url}/test/browsers/pages/script-tag.html`);
      const read = () =>
        page.evaluate(() => ({
          ready: (window as unknown as TagWin).engageReady === true,
          visibleAt: (window as unknown as TagWin).visibleAt,
          seenAt: (window as unknown as { seenAt?: number }).seenAt,
          calls: (window as unknown as TagWin).calls,
        }));
      const { calls, visibleAt, seenAt } = await until(read, (state) => state.calls.some((call) => call.method === 'shown'), 15_000, 'the impression');
      const shown = calls.find((call) => call.method === 'shown')!;
      expect(shown.experience).toBe('Hero');
      expect(visibleAt).toBeDefined();
      // Not a timing assertion: the rule itself. Counted only after a full second in view, from
      // the observer callbacks of the rendering update that saw it (this page's runs first; 1 ms
      // covers clock coarsening). entry.time is only printed: Firefox stamped it up to 6 ms late.
      const waited = Math.round(shown.at - visibleAt!);
      expect(Math.round(shown.at - seenAt!)).toBeGreaterThanOrEqual(999);
      await page.click('#hero button');
      const since = Date.now();
      await until(
        () => stack.received(),
        (r) => r.unique >= 2,
        15_000,
        'the impression and the click at the emulator',
      );
      const ms = Date.now() - since;
      const { events, duplicates } = await stack.received();
      expect(events.map((event) => [event.action.replace('SVC_PERSONALIZATION_MESSAGE_', ''), event.attributes.experience, event.attributes.b_id])).toEqual([
        ['SHOWN', 'Hero', undefined],
        ['CLICKED', 'Hero', 'hero-cta'],
      ]);
      expect(events.every((event) => event.customer_id === 'tag-user')).toBe(true);
      // The placement below the fold was never seen: no impression for it.
      expect((await read()).calls.filter((call) => call.experience === 'Below the fold')).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as TagWin).engageErrors)).toEqual([]);
      rows.push({
        scenario: 'script tag: impression + click',
        delivered: events.length,
        recorded: 2,
        duplicates,
        ms,
        note: `impression ${waited} ms after half in view (${Math.round(shown.at - seenAt!)} ms after the observer callback)`,
      });
    });
  });
}
