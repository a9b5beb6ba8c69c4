// The proxy's side of the loss report (issue 41), against the real emulator: a tracker's report
// in the query becomes engage_proxy_client_dropped_events_total{reason}, each report id once and
// only with a 2xx; every accepted event's delay goes to engage_proxy_event_delay_seconds; the same
// figures are on the log entry a Web-standard runtime (workerd, Deno, Bun) logs.
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/proxy/node/metrics';
import { logLine } from '../../src/proxy/node/log-line';
import { MAX_REPORTED, readClientReport } from '../../src/proxy/pipeline/client-report';
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

describe('readClientReport', () => {
  it('reads the closed reasons, maps the rest to other, caps absurd numbers, refuses what cannot be read', () => {
    expect(readClientReport(`sent_at=1&drops=${ID},0,0,3,0,1,0`)).toEqual({ id: ID, counts: { queue_full: 3, invalid: 1 } });
    expect(readClientReport(`drops=${ID},1,2,3,4,5,6,7,8`)).toEqual({
      id: ID,
      counts: { expired: 1, refused: 2, queue_full: 3, consent_overflow: 4, invalid: 5, destroyed: 6, other: 15 },
    });
    expect(readClientReport(`drops=${ID},999999999999999,0,0,0,0,0,999999,999999`)).toEqual({ id: ID, counts: { expired: MAX_REPORTED, other: MAX_REPORTED } });
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
});
