// The loss report (issue 41) in every engine, through the real proxy and emulator: what a tracker
// drops is counted by reason and reaches the proxy's /metrics exactly once, across a reload and
// with the proxy unreachable while events wait; consent pending then denied counts and sends
// nothing; pending then granted counts what overflowed the bound; and events recorded offline in
// a closed page and delivered at the next visit N s later land in the delay histogram's bucket
// for N s. The script tag's `Engage.createTracker`, on pages/drops.html.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type Engine, type EngineName, type EnginePage, launchEngine, openedPages, until } from './engine';
import { startTestStack, type TestStack } from './stack';
import { queuedEvents } from '../support/queued-events';
import { context } from '../tracker/fixtures';

type Win = Window & {
  Engage: { createTracker(options: Record<string, unknown>): Tracker };
  t: Tracker;
};
interface Tracker {
  shown(context: unknown): string | undefined;
  flush(): Promise<void>;
  consent(state: string): void;
}

const REASONS = ['expired', 'refused', 'queue_full', 'consent_overflow', 'invalid', 'destroyed', 'other'] as const;
type Drops = Record<(typeof REASONS)[number], number>;

/** Makes the page's tracker (window.t) with `options`, on the stack's proxy, and records `count` valid and `invalid` broken calls. */
const make = (page: EnginePage, options: Record<string, unknown>) =>
  page.evaluate((o) => {
    const w = window as unknown as Win;
    w.t = w.Engage.createTracker({ endpoint: '/engage', customerId: 'drop-user', flushInterval: 600_000, ...o });
  }, options);
const record = (page: EnginePage, count: number, invalid = 0) =>
  page.evaluate(
    ([n, bad, base]) => {
      const w = window as unknown as Win;
      const ids = Array.from({ length: n }, (_, i) => w.t.shown({ ...base, cid: `cid-${i}` }));
      for (let i = 0; i < bad; i++) w.t.shown({ ...base, cid: '' });
      return ids;
    },
    [count, invalid, context] as [number, number, typeof context],
  );
const flush = (page: EnginePage) =>
  page.evaluate(() =>
    (window as unknown as Win).t.flush().then(
      () => 'ok',
      (error: Error) => error.name,
    ),
  );

export function describeDropReport(name: EngineName): void {
  describe(`${name}: the loss report`, () => {
    let engine: Engine;
    let stack: TestStack;
    const pages = openedPages(() => engine);
    const figures: string[] = [];

    /** The stack's /metrics, as drops by reason and the delay histogram's buckets. */
    async function scrape(): Promise<{ drops: Drops; delay: Record<string, number> }> {
      const text = await (await fetch(`${stack.url}/metrics`)).text();
      const drops = Object.fromEntries(
        REASONS.map((reason) => [reason, Number(new RegExp(`engage_proxy_client_dropped_events_total\\{reason="${reason}"\\} (\\d+)`).exec(text)?.[1])]),
      ) as Drops;
      const delay = Object.fromEntries([...text.matchAll(/engage_proxy_event_delay_seconds_bucket\{le="([^"]+)"\} (\d+)/g)].map((m) => [m[1]!, Number(m[2])]));
      return { drops, delay };
    }
    const minus = (a: Drops, b: Drops) => Object.fromEntries(REASONS.map((reason) => [reason, a[reason] - b[reason]]).filter(([, n]) => n)) as Partial<Drops>;
    async function open(): Promise<EnginePage> {
      const page = await pages.open();
      await page.goto(`${stack.url}/test/browsers/pages/drops.html`);
      await until(
        () => page.evaluate(() => typeof (window as unknown as Win).Engage?.createTracker),
        (type) => type === 'function',
        15_000,
        'the script tag',
      );
      return page;
    }

    beforeAll(async () => {
      stack = await startTestStack();
      engine = await launchEngine(name);
    });
    afterEach(async () => {
      stack.down = false;
      await pages.closeAll();
      await stack.admin('faults', { method: 'DELETE' });
    });
    afterAll(async () => {
      await engine?.close();
      await stack?.close();
      console.log([`[drops] ${engine?.version}`, ...figures].join('\n'));
    });

    test('queue_full 3, expired, refused and invalid 1, each on /metrics exactly once across a reload', async () => {
      const before = (await scrape()).drops;
      const options = { namespace: 'drops-1', maxQueueSize: 5, maxEventAge: 2_000 };
      let page = await open();
      await make(page, options);
      // The proxy unreachable while events wait.
      stack.down = true;
      await record(page, 2);
      const recordedAt = Date.now();
      await until(
        async () => Date.now() - recordedAt,
        (ms) => ms > 2_500,
        10_000,
        'two events older than maxEventAge',
      );
      await record(page, 8, 1);
      // This run drops 2 expired and 3 beyond the bound of 5, claims the report, and fails.
      expect(await flush(page)).toBe('NetworkError');
      expect(minus((await scrape()).drops, before)).toEqual({});
      // A reload with the report unanswered loses none of it.
      await page.reload();
      await until(
        () => page.evaluate(() => typeof (window as unknown as Win).Engage?.createTracker),
        (type) => type === 'function',
        15_000,
        'the script tag',
      );
      stack.down = false;
      await make(page, options);
      expect(await flush(page)).toBe('ok');
      // An upstream refusal of one event ends its delivery: refused 1.
      await stack.admin('faults', { body: { statuses: [400], count: 1 } });
      await record(page, 1);
      expect(await flush(page)).toBe('ok');
      await stack.admin('faults', { method: 'DELETE' });
      // One report is out at a time (a run claims what is stored then; what is counted meanwhile
      // goes with a later run): a few more requests carry the rest. Whether a retry run dropped
      // the expired events before the 8 were recorded depends on the engine's timers.
      // In the order `minus` writes the reasons, so the two compare as JSON.
      const expected = { expired: 2, refused: 1, queue_full: 3, invalid: 1 };
      let rounds = 0;
      for (; rounds < 8 && JSON.stringify(minus((await scrape()).drops, before)) !== JSON.stringify(expected); rounds++) {
        const delivered = (await stack.received()).unique;
        await record(page, 1);
        expect(await flush(page)).toBe('ok');
        expect((await stack.received()).unique).toBe(delivered + 1);
      }
      const counted = minus((await scrape()).drops, before);
      expect(counted).toEqual(expected);
      // Later requests, from this page and from a new one, add nothing.
      await record(page, 2);
      expect(await flush(page)).toBe('ok');
      await pages.close(page);
      page = await open();
      await make(page, options);
      await record(page, 1);
      expect(await flush(page)).toBe('ok');
      expect(minus((await scrape()).drops, before)).toEqual(counted);
      figures.push(
        `[drops] ${name} | queue of 5, 8 + 2 recorded, 2 expired, 1 empty cid, 1 refused, reload between | /metrics: ${JSON.stringify(counted)} after ${rounds} more request(s); +0 after 2 more and a new page`,
      );
    });

    test('consent pending then denied: no count and no request', async () => {
      const before = (await scrape()).drops;
      const page = await open();
      await make(page, { namespace: 'drops-denied', consent: 'pending' });
      const arrivals = stack.arrivals.length;
      await record(page, 1_003, 1);
      await page.evaluate(() => (window as unknown as Win).t.consent('denied'));
      await record(page, 2, 1);
      expect(await flush(page)).toBe('ok');
      // Time for a wrong request to show: the tracker's start-up run (1 s) and then some.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(stack.arrivals.length).toBe(arrivals);
      expect(minus((await scrape()).drops, before)).toEqual({});
      // The denial is remembered per origin: lift it for the next scenarios.
      await page.evaluate(() => localStorage.clear());
      figures.push(`[drops] ${name} | pending → denied, 1,003 + 2 recorded, 2 empty cids | requests: 0, /metrics: +0`);
    });

    test('consent pending then granted: consent_overflow past the bound of 1,000', async () => {
      const before = (await scrape()).drops;
      const page = await open();
      await make(page, { namespace: 'drops-granted', consent: 'pending' });
      const delivered = (await stack.received()).unique;
      await record(page, 1_004);
      await page.evaluate(() => (window as unknown as Win).t.consent('granted'));
      expect(await flush(page)).toBe('ok');
      expect((await stack.received()).unique).toBe(delivered + 1_000);
      const counted = minus((await scrape()).drops, before);
      expect(counted).toEqual({ consent_overflow: 4 });
      figures.push(`[drops] ${name} | pending → granted, 1,004 recorded | delivered 1,000, /metrics: ${JSON.stringify(counted)}`);
    });

    test('recorded offline in a closed page, delivered at the next visit 8 s later: in the bucket for 8 s', async () => {
      const before = (await scrape()).delay;
      const options = { namespace: 'drops-delay' };
      let page = await open();
      await make(page, options);
      stack.down = true;
      const ids = await record(page, 3);
      // Closed once IndexedDB holds them (a loaded machine can take longer than a user's pace to commit).
      await until(
        () => page.evaluate(queuedEvents),
        (n) => n === 3,
        15_000,
        'the 3 events in IndexedDB',
      );
      await pages.close(page);
      const closedAt = Date.now();
      await until(
        async () => Date.now() - closedAt,
        (ms) => ms >= 8_000,
        15_000,
        '8 s after the page closed',
      );
      stack.down = false;
      page = await open();
      await make(page, options);
      expect(await flush(page)).toBe('ok');
      const { events } = await stack.received();
      expect(events.filter((event) => ids.includes(event.svc_event_uuid))).toHaveLength(3);
      const after = (await scrape()).delay;
      const added = (le: string) => after[le]! - (before[le] ?? 0);
      // 8 s and a little (whole seconds of event_time, the next visit's start-up): above 5 s, within 15 s.
      expect(added('5')).toBe(0);
      expect(added('15')).toBe(3);
      figures.push(`[drops] ${name} | 3 recorded offline, page closed, next visit 8 s later | delay buckets +3 in le=15, +0 in le=5`);
    });
  });
}
