// Devices with a wrong clock, in every engine through the driver seam: the script tag on a page
// whose `Date` and `performance.timeOrigin` are moved (pages/clock.js, before anything else runs),
// against the real proxy and emulator. Every event must arrive once, dated by the true time: the
// tracker states when it sent each request, and the proxy dates the events by its own clock.
import { describe, expect, test } from 'vitest';
import { type Engine, type EngineName, type EnginePage, until } from './engine';
import { withEngineAndStack, type TestStack } from './stack';
import type { DeliveredEvent } from './stack';

type ClockWin = Window & {
  Engage: { tracker?: unknown; shown(context: unknown): string; flush(): Promise<void> };
  realNow(): number;
  setDeviceClock(ms: number): void;
  engageErrors: string[];
};

const MINUTE = 60_000;
const DAY = 86_400_000;
// Events wait this long before they leave: a clamp to "now" alone would then date them this late.
const WAIT_MS = 3_000;
const wait = () => new Promise((resolve) => setTimeout(resolve, WAIT_MS));
const CLOCKS: Array<[string, number]> = [
  ['10 min fast', 10 * MINUTE],
  ['90 s fast', 90_000],
  ['1 day slow', -DAY],
  ['3 years slow', -3 * 365 * DAY],
];

export function describeDeviceClocks(name: EngineName): void {
  describe(`${name}: a wrong device clock`, () => {
    let engine: Engine;
    let stack: TestStack;
    const figures: string[] = [];

    withEngineAndStack(
      name,
      (started, at) => ((engine = started), (stack = at)),
      () => [`[clocks] ${name}`, ...figures],
    );

    /** Opens the clock page with the device `skew` ms off (and more of the query), ready to record. */
    async function open(skew: number, query = ''): Promise<EnginePage> {
      await stack.admin('reset', { body: {} });
      const page = await engine.newPage();
      await page.goto(`${stack.url}/test/browsers/pages/clock.html?clock=${skew}${query}`);
      await until(() => page.evaluate(() => !!(window as unknown as ClockWin).Engage?.tracker), Boolean, 15_000, 'the script tag');
      // Past the tracker's start-up run (1 s, for what earlier pages left): from here on a request
      // leaves only when the test says, so the events wait as long as it says.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return page;
    }
    /** Records `count` impressions; answers their UUIDs and the true time of recording. */
    const record = (page: EnginePage, count: number) =>
      page.evaluate((n) => {
        const w = window as unknown as ClockWin;
        const context = (i: number) => ({
          cid: `cid-${i}`,
          experience: `Experience ${i}`,
          svc_locale_id: '0',
          svc_variation_id: '2',
          audience_name: 'All users',
          audience_id: '5A',
          type: 'Web Personalization',
        });
        return { ids: Array.from({ length: n }, (_, i) => w.Engage.shown(context(i))), at: w.realNow() };
      }, count);
    /** Waits for `ids` at the emulator, each once and nothing else; answers the events. */
    async function delivered(ids: string[]): Promise<DeliveredEvent[]> {
      await until(
        () => stack.received(),
        (received) => received.unique >= ids.length,
        30_000,
        `${ids.length} events at the emulator`,
      );
      const { events, duplicates, unique } = await stack.received();
      expect(unique).toBe(ids.length);
      expect(duplicates).toBe(0);
      expect(events.map((event) => event.svc_event_uuid).sort()).toEqual([...ids].sort());
      return events;
    }
    /** How far each event's `event_time` is from the second it was truly recorded in. */
    const errors = (events: DeliveredEvent[], recordedAt: number) => events.map((event) => event.event_time - Math.floor(recordedAt / 1000));

    test('10 min and 90 s fast, a day and three years slow: 5 of 5 delivered once, dated within 2 s of the truth', async () => {
      for (const [label, skew] of CLOCKS) {
        const page = await open(skew);
        try {
          const { ids, at } = await record(page, 5);
          await wait();
          expect(await page.evaluate(() => (window as unknown as ClockWin).Engage.flush().then(() => 'ok'))).toBe('ok');
          const off = errors(await delivered(ids), at);
          for (const error of off) expect(Math.abs(error)).toBeLessThanOrEqual(2);
          expect(await page.evaluate(() => (window as unknown as ClockWin).engageErrors)).toEqual([]);
          figures.push(`[clocks] ${name} | ${label} | 5/5 once | event_time − truth: ${[...new Set(off)].join(', ')} s`);
        } finally {
          await page.close();
        }
      }
      // The proxy measured every one of them.
      const metrics = await (await fetch(`${stack.url}/metrics`)).text();
      const count = Number(/engage_proxy_device_clock_offset_seconds_count (\d+)/.exec(metrics)?.[1]);
      expect(count).toBeGreaterThanOrEqual(CLOCKS.length);
      for (const le of ['-31536000', '-86400', '60', '600']) {
        figures.push(
          `[clocks] ${name} | /metrics | ${/engage_proxy_device_clock_offset_seconds_bucket\{le="[^"]+"\} \d+/.exec(metrics.split('\n').find((line) => line.includes(`le="${le}"`)) ?? '')?.[0]}`,
        );
      }
    });

    test('10 min fast and the page closed before any flush: what leaves with it is delivered and dated right', async () => {
      const page = await open(10 * MINUTE);
      const { ids, at } = await record(page, 3);
      await wait();
      // Closing is the only send: the flush interval is ten minutes.
      await page.close();
      const off = errors(await delivered(ids), at);
      for (const error of off) expect(Math.abs(error)).toBeLessThanOrEqual(2);
      figures.push(`[clocks] ${name} | 10 min fast, page closed | 3/3 once | event_time − truth: ${[...new Set(off)].join(', ')} s`);
    });

    test('recorded 10 min fast, sent after the clock was put right: delivered once, dated between recording and sending', async () => {
      const page = await open(10 * MINUTE);
      try {
        const { ids, at } = await record(page, 3);
        await wait();
        const sentAt = await page.evaluate(() => {
          const w = window as unknown as ClockWin;
          w.setDeviceClock(0);
          return w.Engage.flush().then(() => w.realNow());
        });
        const events = await delivered(ids);
        // What a wall clock cannot tell: the correction after recording reads as a shorter wait, so
        // the events are dated when they left (never in the future), at most their wait late.
        for (const event of events) {
          expect(event.event_time).toBeGreaterThanOrEqual(Math.floor(at / 1000));
          expect(event.event_time).toBeLessThanOrEqual(Math.floor(sentAt / 1000));
        }
        const off = errors(events, at);
        figures.push(
          `[clocks] ${name} | recorded +10 min, sent after NTP, ${Math.round((sentAt - at) / 1000)} s later | 3/3 once | event_time − truth: ${[...new Set(off)].join(', ')} s`,
        );
      } finally {
        await page.close();
      }
    });

    test('the inspection panel names the offset', async () => {
      const page = await open(10 * MINUTE, '&engage-inspect');
      try {
        const { ids } = await record(page, 1);
        await page.evaluate(() => (window as unknown as ClockWin).Engage.flush());
        await delivered(ids);
        const line = await until(
          () => page.evaluate(() => document.querySelector('engage-inspect')?.shadowRoot?.querySelector('dd[data-fact="clock"]')?.textContent ?? ''),
          (text) => /fast/.test(text),
          15_000,
          'the clock line',
        );
        expect(line).toBe('device clock 10 min fast — corrected by the proxy');
        figures.push(`[clocks] ${name} | inspection panel | "${line}"`);
      } finally {
        await page.close();
      }
    });
  });
}
