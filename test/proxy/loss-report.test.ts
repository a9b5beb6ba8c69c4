// The proxy's side of the loss report (issue 41), against the real emulator: a tracker's report
// in the query becomes engage_proxy_client_dropped_events_total{reason}, each report id once and
// only with a 2xx; every accepted event's delay goes to engage_proxy_event_delay_seconds; the same
// figures are on the log entry a Web-standard runtime (workerd, Deno, Bun) logs.
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/proxy/node/metrics';
import { logLine } from '../../src/proxy/node/log-line';
import { MAX_REPORT_EVENTS, readClientReport } from '../../src/proxy/pipeline/client-report';
import { eventDelays } from '../../src/proxy/pipeline/event-delay';
import type { ProxyLogEntry } from '../../src/proxy/types';
import { experienceBody, harness, type Harness } from './support';

let h: Harness | undefined;
afterEach(() => h?.close());

const ID = '0b6f3c1e-2d4a-4f6b-9c8d-7e6f5a4b3c2d';
const post = (body: unknown, query: string) => h!.call(`/v1/experiences/events?sent_at=${Date.now()}${query}`, { json: body });
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
const dropped = (text: string, reason: string) => value(text, `engage_proxy_client_dropped_events_total{reason="${reason}"}`);
const reports = (text: string, reason: string) => value(text, `engage_proxy_loss_reports_total{reason="${reason}"}`);
const reportId = (n: number) => `${ID.slice(0, -4)}${String(n).padStart(4, '0')}`;

describe('readClientReport', () => {
  it('reads the closed reasons, maps the rest to other, caps absurd numbers, refuses what cannot be read', () => {
    expect(readClientReport(`sent_at=1&drops=${ID},0,0,3,0,1,0`)).toEqual({ id: ID, counts: { queue_full: 3, invalid: 1 } });
    expect(readClientReport(`drops=${ID},1,2,3,4,5,6,7,8`)).toEqual({
      id: ID,
      counts: { expired: 1, refused: 2, queue_full: 3, consent_overflow: 4, invalid: 5, destroyed: 6, other: 15 },
    });
    // At most what one tracker's queue holds (10,000) in all, scaled down in proportion.
    expect(MAX_REPORT_EVENTS).toBe(10_000);
    expect(readClientReport(`drops=${ID},999999999999999,0,0,0,0,0,0,0`)).toEqual({ id: ID, counts: { expired: 10_000 } });
    expect(readClientReport(`drops=${ID},15000,0,5000`)).toEqual({ id: ID, counts: { expired: 7_500, queue_full: 2_500 } });
    // The issue's forged report: 100,000 for each of seven reasons, 700,000 stated.
    const forged = readClientReport(`drops=${ID},100000,100000,100000,100000,100000,100000,100000`)!;
    expect(Object.values(forged.counts)).toEqual([1_428, 1_428, 1_428, 1_428, 1_428, 1_428, 1_428]);
    expect(readClientReport(`drops=${ID},10000,0,0,0,0,0,1`)).toEqual({ id: ID, counts: { expired: 9_999 } });
    expect(readClientReport(`drops=${encodeURIComponent(`${ID},0,2`)}`)).toEqual({ id: ID, counts: { refused: 2 } });
    expect(readClientReport(`drops=${ID},-1,1.5,x,,0`)).toBeUndefined();
    expect(readClientReport('drops=not%20an%20id,1')).toBeUndefined();
    expect(readClientReport('drops=%E0%A4%A')).toBeUndefined();
    expect(readClientReport('sent_at=1')).toBeUndefined();
  });

  it('measures each event from its time to acceptance', () => {
    const body = { elements: [{ actions: [{ event_time: 1_000 }, { event_time: 990 }, { event_time: 2_000 }] }, { actions: 'no' }] };
    expect(eventDelays(body, 1_020_500)).toEqual([20.5, 30.5, 0]);
  });
});

describe('the loss report on /metrics', () => {
  it('counts a report once, only with a 2xx, whoever sends it again', async () => {
    const metrics = createMetrics();
    const entries: ProxyLogEntry[] = [];
    h = await harness({ logger: (entry) => (entries.push(entry), metrics.logger(entry)) });
    const before = await metrics.render();
    for (const reason of ['expired', 'refused', 'queue_full', 'consent_overflow', 'invalid', 'destroyed', 'other']) expect(dropped(before, reason)).toBe(0);
    const report = `&drops=${ID},2,0,3,0,1,0`;
    // Refused by the upstream: not counted, the tracker keeps the report.
    await h.upstream.fault({ statuses: [400], count: 1 });
    expect((await post(experienceBody(1), report)).status).toBe(400);
    expect(dropped(await metrics.render(), 'queue_full')).toBe(0);
    // Answered 2xx: counted; the same id again (a beacon, another tab, a reload): not again.
    expect((await post(experienceBody(1), report)).status).toBe(200);
    expect((await post(experienceBody(2), report)).status).toBe(200);
    expect((await post(experienceBody(1), '')).status).toBe(200);
    const text = await metrics.render();
    expect(dropped(text, 'queue_full')).toBe(3);
    expect(dropped(text, 'invalid')).toBe(1);
    expect(dropped(text, 'expired')).toBe(2);
    expect(dropped(text, 'refused')).toBe(0);
    // A new report adds.
    expect((await post(experienceBody(1), `&drops=${ID.replace('0b', '1c')},0,1`)).status).toBe(200);
    expect(dropped(await metrics.render(), 'refused')).toBe(1);
    // The log entry a Workers user reads carries the same figures, once.
    expect(entries.filter((entry) => entry.clientDropped)).toHaveLength(2);
    expect(entries.find((entry) => entry.clientDropped)!.clientDropped).toEqual({ expired: 2, queue_full: 3, invalid: 1 });
    expect(
      logLine(
        entries.find((entry) => entry.clientDropped)!,
        'text',
      ),
    ).toContain('dropped=expired:2,queue_full:3,invalid:1');
  });

  it('puts each accepted event in the delay histogram, by its corrected time', async () => {
    const metrics = createMetrics();
    const entries: ProxyLogEntry[] = [];
    h = await harness({ logger: (entry) => (entries.push(entry), metrics.logger(entry)) });
    const now = Date.now();
    const body = experienceBody(3);
    // Recorded 20 s ago by a device clock an hour fast, sent now by that clock: 20 s late.
    for (const action of body.elements[0]!.actions) action.event_time = Math.floor((now + 3_600_000 - 20_000) / 1000);
    const answer = await h.call(`/v1/experiences/events?sent_at=${now + 3_600_000}`, { json: body });
    expect(answer.status).toBe(200);
    // Sent again: answered from the UUID memory, not accepted twice.
    expect((await h.call(`/v1/experiences/events?sent_at=${Date.now()}`, { json: body })).status).toBe(200);
    const text = await metrics.render();
    expect(value(text, 'engage_proxy_event_delay_seconds_count')).toBe(3);
    expect(value(text, 'engage_proxy_event_delay_seconds_bucket{le="15"}')).toBe(0);
    expect(value(text, 'engage_proxy_event_delay_seconds_bucket{le="30"}')).toBe(3);
    expect(entries[0]!.eventDelaySeconds).toHaveLength(3);
    for (const delay of entries[0]!.eventDelaySeconds!) expect(delay).toBeGreaterThanOrEqual(19);
  });

  it('counts a report only on an accepted delivery, and at most 3 an hour from one address', async () => {
    const metrics = createMetrics();
    h = await harness({
      logger: metrics.logger,
      rateLimits: { experienceEvents: { client: [{ limit: 20, windowMs: 60_000 }], reports: [{ limit: 3, windowMs: 3_600_000 }] } },
    });
    const from = (address: string, n: number, events = 1) =>
      h!.call(`/v1/experiences/events?sent_at=${Date.now()}&drops=${reportId(n)},5,0,0,0,0,0`, { json: experienceBody(events), clientAddress: address });
    // Refused by the proxy's own client budget (429), by the upstream (400), from a crawler: none counts.
    expect((await from('198.51.100.1', 1, 21)).status).toBe(429);
    await h.upstream.fault({ statuses: [400], count: 1 });
    expect((await from('198.51.100.1', 2)).status).toBe(400);
    const crawler = await h.call(`/v1/experiences/events?drops=${reportId(3)},5`, {
      json: experienceBody(1),
      clientAddress: '198.51.100.1',
      headers: { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' },
    });
    expect(crawler.headers.get('x-engage-crawler')).toBe('dropped');
    let text = await metrics.render();
    expect([reports(text, 'expired'), dropped(text, 'expired'), value(text, 'engage_proxy_deliveries_total')]).toEqual([0, 0, 0]);
    // One address, ten new reports on accepted deliveries: three counted, the rest over budget,
    // every delivery accepted and its event forwarded.
    for (let n = 10; n < 20; n++) expect((await from('198.51.100.1', n)).status).toBe(200);
    // Another address has its own budget.
    expect((await from('198.51.100.2', 30)).status).toBe(200);
    text = await metrics.render();
    expect(reports(text, 'expired')).toBe(4);
    expect(dropped(text, 'expired')).toBe(20);
    expect(value(text, 'engage_proxy_reports_over_budget_total{kind="loss"}')).toBe(7);
    expect(value(text, 'engage_proxy_deliveries_total')).toBe(11);
    expect(value(text, 'engage_proxy_events_forwarded_total{operation="experienceEvents"}')).toBe(11);
    // The same report again (a beacon, another tab) spends no budget: a new address's first two count.
    expect((await from('198.51.100.3', 40)).status).toBe(200);
    expect((await from('198.51.100.3', 40)).status).toBe(200);
    expect((await from('198.51.100.3', 41)).status).toBe(200);
    expect(reports(await metrics.render(), 'expired')).toBe(6);
  });

  it('counts a delivery whose oldest event is over an hour late, within the same budget', async () => {
    const metrics = createMetrics();
    const entries: ProxyLogEntry[] = [];
    h = await harness({ logger: (entry) => (entries.push(entry), metrics.logger(entry)) });
    const late = (address: string, minutes: number) => {
      const body = experienceBody(3);
      body.elements[0]!.actions[0]!.event_time = Math.floor(Date.now() / 1000) - minutes * 60;
      return h!.call(`/v1/experiences/events?sent_at=${Date.now()}`, { json: body, clientAddress: address });
    };
    expect((await late('198.51.100.1', 50)).status).toBe(200);
    expect(value(await metrics.render(), 'engage_proxy_late_deliveries_total')).toBe(0);
    for (let i = 0; i < 5; i++) expect((await late('198.51.100.1', 120)).status).toBe(200);
    const text = await metrics.render();
    expect(value(text, 'engage_proxy_late_deliveries_total')).toBe(3);
    expect(value(text, 'engage_proxy_reports_over_budget_total{kind="late"}')).toBe(2);
    // The histogram still holds every accepted event (a dashboard figure, not an alert's).
    expect(value(text, 'engage_proxy_event_delay_seconds_count')).toBe(18);
    expect(entries.filter((entry) => entry.lateDelivery)).toHaveLength(3);
    expect(logLine(entries.at(-1)!, 'text')).toContain('over-budget=late');
  });
});
