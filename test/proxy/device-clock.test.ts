// The proxy dates experience events by its own clock: event_time = received − (sent − recorded),
// read from the request's `sent_at`; the arithmetic and the clamps alone, then through the pipeline
// on both edges (Web handler, and serve's Node edge) with the metric and the header it answers.
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/proxy/node/metrics';
import { serve } from '../../src/proxy/node/serve';
import { correctEventTimes, DEAD_BAND_MS, deviceClockOffset } from '../../src/proxy/pipeline/device-clock';
import { experienceBody, harness } from './support';

const RECEIVED = 1_764_111_600_123; // 2025-11-25T23:00:00.123Z
const SECOND = Math.floor(RECEIVED / 1000);
const body = (...times: unknown[]) => ({ elements: [{ customer_id: 'u', actions: times.map((event_time) => ({ event_time })) }] });
const times = (value: ReturnType<typeof body>) => value.elements[0]!.actions.map((action) => action.event_time);
/** What the device's clock said `ago` ms before `RECEIVED`, for a clock `skew` ms ahead (negative: behind). */
const device = (skew: number, ago = 0) => RECEIVED - ago + skew;

describe('deviceClockOffset', () => {
  it('reads sent_at as epoch ms by the device, anywhere in the query', () => {
    expect(deviceClockOffset(`sent_at=${device(600_000)}`, RECEIVED)).toBe(600_000);
    expect(deviceClockOffset(`a=1&sent_at=${device(-86_400_000)}&b=2`, RECEIVED)).toBe(-86_400_000);
    // A dead clock battery: back to the firmware's date, 1970 or 2000, is read and corrected, not ignored.
    expect(deviceClockOffset('sent_at=946684800000', RECEIVED)).toBe(946_684_800_000 - RECEIVED);
    expect(deviceClockOffset('sent_at=3600000', RECEIVED)).toBe(3_600_000 - RECEIVED);
  });

  it('is undefined (no correction) for no sent time, one that is not an integer, seconds, or beyond a Date', () => {
    for (const query of [
      '',
      'sent=1764111600123',
      'xsent_at=1764111600123',
      'sent_at=',
      'sent_at=abc',
      'sent_at=-1764111600123',
      'sent_at=1764111600123.5',
      'sent_at=1e12',
      'sent_at=17641116001230000', // 17 digits
      'sent_at=9000000000000000', // past the last Date
      `sent_at=${SECOND}`, // seconds where ms belong
      `sent_at=${SECOND - 86_400 * 200}`, // seconds, a slow clock
    ]) {
      expect(deviceClockOffset(query, RECEIVED), query).toBeUndefined();
    }
  });
});

describe('correctEventTimes', () => {
  it('moves events of a fast clock back by its offset, in ms, flooring to seconds last', () => {
    const skew = 600_000 + 456; // 10 min and 456 ms fast
    const recorded = [device(skew, 3_000), device(skew, 250), device(skew, 3_600_000)];
    const value = body(...recorded.map((ms) => Math.floor(ms / 1000)));
    expect(correctEventTimes(value, skew, RECEIVED)).toBe(true);
    // The device's seconds lose up to 999 ms of the recording instant; never more, never later.
    expect(times(value)).toEqual([RECEIVED - 3_000, RECEIVED - 250, RECEIVED - 3_600_000].map((ms) => Math.floor((Math.floor((ms + skew) / 1000) * 1000 - skew) / 1000)));
    for (const [i, time] of times(value).entries()) {
      const truth = Math.floor((recorded[i]! - skew) / 1000);
      expect(truth - (time as number)).toBeGreaterThanOrEqual(0);
      expect(truth - (time as number)).toBeLessThanOrEqual(1);
    }
  });

  it('moves events of a slow clock forward: a day, three years', () => {
    for (const skew of [-86_400_000, -3 * 365 * 86_400_000]) {
      const value = body(Math.floor(device(skew, 5_000) / 1000));
      correctEventTimes(value, skew, RECEIVED);
      expect(Math.abs((times(value)[0] as number) - Math.floor((RECEIVED - 5_000) / 1000))).toBeLessThanOrEqual(1);
    }
  });

  it('leaves a clock that looks slow by less than the dead band alone: the request’s flight explains it', () => {
    const value = body(SECOND - 10);
    expect(correctEventTimes(value, -(DEAD_BAND_MS - 1), RECEIVED)).toBe(false);
    expect(times(value)).toEqual([SECOND - 10]);
    expect(correctEventTimes(value, 0, RECEIVED)).toBe(false);
    // Past the band, it is a slow clock.
    expect(correctEventTimes(value, -(DEAD_BAND_MS + 1_000), RECEIVED)).toBe(true);
    expect(times(value)).toEqual([SECOND - 7]);
  });

  it('corrects a clock that looks fast by any amount: flight never makes a clock look fast', () => {
    const value = body(SECOND - 10);
    expect(correctEventTimes(value, 1_500, RECEIVED)).toBe(true);
    expect(times(value)).toEqual([SECOND - 12]);
  });

  it('clamps to the proxy’s current second: no sent time, a clock put right after recording, an absurd offset', () => {
    // No sent time: no correction, but never forwarded in the future.
    const future = body(SECOND + 600, SECOND - 5, SECOND);
    expect(correctEventTimes(future, undefined, RECEIVED)).toBe(true);
    expect(times(future)).toEqual([SECOND, SECOND - 5, SECOND]);
    // Recorded at +10 min, sent after the clock was put right: "sent − recorded" is negative.
    const moved = body(Math.floor(device(600_000, 2_000) / 1000));
    correctEventTimes(moved, 0, RECEIVED);
    expect(times(moved)).toEqual([SECOND]);
    // Never below 0 either.
    const ancient = body(5);
    correctEventTimes(ancient, 3_600_000, RECEIVED);
    expect(times(ancient)).toEqual([0]);
  });

  it('never produces a second after the one it received the request in', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647) * 2 - 1;
    for (let i = 0; i < 20_000; i++) {
      const received = RECEIVED + Math.round(random() * 1e9);
      const offset = Math.round(random() * 4 * 10 ** Math.round(Math.abs(random()) * 9));
      const value = body(Math.floor((received + offset + Math.round(random() * 5_000)) / 1000));
      correctEventTimes(value, offset, received);
      expect(times(value)[0] as number).toBeLessThanOrEqual(Math.floor(received / 1000));
    }
  });

  it('leaves what validation must name: milliseconds where seconds belong, wrong types, wrong shapes', () => {
    const wrong = body(RECEIVED, '123', 1.5, -3, null);
    expect(correctEventTimes(wrong, 600_000, RECEIVED)).toBe(false);
    expect(times(wrong)).toEqual([RECEIVED, '123', 1.5, -3, null]);
    for (const shape of [null, [], { elements: {} }, { elements: [null, { actions: 'x' }, { actions: [null, 5] }] }]) {
      expect(correctEventTimes(shape, 600_000, RECEIVED)).toBe(false);
    }
  });
});

describe('through the pipeline', () => {
  const XP = '/v1/experiences/events';
  const fast = (ms: number, value: ReturnType<typeof experienceBody>) => {
    for (const action of value.elements[0]!.actions) action.event_time = (action.event_time as number) + ms / 1000;
    return value;
  };

  it('forwards the events dated by the proxy’s clock, says the offset, and counts it in /metrics', async () => {
    const metrics = createMetrics();
    const h = await harness({ logger: metrics.logger });
    try {
      const truth = Math.floor(Date.now() / 1000) - 5;
      const response = await h.call(`${XP}?sent_at=${Date.now() + 600_000}`, { json: fast(600_000, experienceBody(3)) });
      expect(response.status).toBe(200);
      const offset = Number(response.headers.get('x-engage-device-clock'));
      expect(offset).toBeGreaterThan(599_000);
      expect(offset).toBeLessThanOrEqual(600_000);
      const forwarded = JSON.parse(h.sent[0]!.body) as ReturnType<typeof experienceBody>;
      for (const action of forwarded.elements[0]!.actions) expect(Math.abs((action.event_time as number) - truth)).toBeLessThanOrEqual(1);
      // A day slow, in the same run.
      expect((await h.call(`${XP}?sent_at=${Date.now() - 86_400_000}`, { json: fast(-86_400_000, experienceBody(1)) })).status).toBe(200);
      const text = await metrics.render();
      // Cumulative buckets: the day slow is at or under -86400, the 10 min fast between 60 and 600.
      expect(text).toMatch(/engage_proxy_device_clock_offset_seconds_bucket\{le="-31536000"\} 0\n/);
      expect(text).toMatch(/engage_proxy_device_clock_offset_seconds_bucket\{le="-86400"\} 1\n/);
      expect(text).toMatch(/engage_proxy_device_clock_offset_seconds_bucket\{le="60"\} 1\n/);
      expect(text).toMatch(/engage_proxy_device_clock_offset_seconds_bucket\{le="600"\} 2\n/);
      expect(text).toMatch(/engage_proxy_device_clock_offset_seconds_count 2\n/);
    } finally {
      await h.close();
    }
  });

  it('on the Node edge too, and forwards the body it received when nothing changes', async () => {
    const h = await harness();
    const server = await serve(h.proxy, { port: 0, host: '127.0.0.1' });
    try {
      const send = (query: string, value: unknown) =>
        fetch(`${server.url}/engage${XP}${query}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(value) });
      const right = experienceBody(2);
      const raw = JSON.stringify(right);
      expect((await send(`?sent_at=${Date.now()}`, right)).status).toBe(200);
      expect(h.sent[0]!.body).toBe(raw);
      const response = await send(`?sent_at=${Date.now() + 90_000}`, fast(90_000, experienceBody(1)));
      expect(response.status).toBe(200);
      expect(Number(response.headers.get('x-engage-device-clock'))).toBeGreaterThan(88_000);
      const forwarded = JSON.parse(h.sent[1]!.body) as ReturnType<typeof experienceBody>;
      expect(Math.abs((forwarded.elements[0]!.actions[0]!.event_time as number) - (Math.floor(Date.now() / 1000) - 5))).toBeLessThanOrEqual(1);
    } finally {
      await server.close();
      await h.close();
    }
  });

  it('never refuses an event for its clock, and keeps today’s answer for a body wrong in another way', async () => {
    const h = await harness();
    try {
      // No sent time, 10 min in the future: forwarded, dated now.
      expect((await h.call(XP, { json: fast(600_000, experienceBody(1)) })).status).toBe(200);
      expect(JSON.parse(h.sent[0]!.body).elements[0].actions[0].event_time).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
      // Milliseconds where seconds belong is the body's mistake, named as before.
      const ms = experienceBody(1);
      ms.elements[0]!.actions[0]!.event_time = Date.now();
      const refused = await h.call(`${XP}?sent_at=${Date.now()}`, { json: ms });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(await refused.json())).toContain('epoch seconds, not milliseconds');
      expect(h.sent).toHaveLength(1);
    } finally {
      await h.close();
    }
  });
});
