import { describe, expect, it } from 'vitest';
import { takeBatch, utf8Length } from '../../src/tracker/batch';
import type { StoredEvent } from '../../src/tracker/types';

let n = 0;
const event = (over: Partial<StoredEvent> = {}): StoredEvent => ({
  uuid: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  action: 'SVC_PERSONALIZATION_MESSAGE_SHOWN',
  time: 1_700_000_000,
  offset: 19_800,
  customerId: 'u-1',
  attributes: { cid: 'c', experience: 'e', svc_locale_id: '0', svc_variation_id: '1', audience_name: 'a', audience_id: '5A' },
  recordedAt: 1_700_000_000_000,
  ...over,
});

describe('takeBatch', () => {
  it('groups events into elements by customer and offset, in upstream shape', () => {
    n = 0;
    const events = [event(), event({ offset: 3_600 }), event(), event({ customerId: undefined }), event({ customerId: 'u-2' })];
    const { _batch: batch, _rest: rest } = takeBatch(events, () => undefined, 1_800_000_000, 60_000);
    const body = JSON.parse(batch!._body);
    expect(
      body.elements.map((e: { customer_id: string; user_timezone_offset: number; actions: unknown[] }) => [e.customer_id, e.user_timezone_offset, e.actions.length]),
    ).toEqual([
      ['u-1', 19_800, 2],
      ['u-1', 3_600, 1],
      ['u-2', 19_800, 1],
    ]);
    expect(body.elements[0].actions[0]).toEqual({
      action: 'SVC_PERSONALIZATION_MESSAGE_SHOWN',
      svc_event_uuid: '00000000-0000-4000-8000-000000000001',
      event_time: 1_700_000_000,
      platform: 'web',
      attributes: events[0]!.attributes,
    });
    // The anonymous event waits for a customer.
    expect(rest).toEqual([events[3]]);
    expect(batch!._bytes).toBe(new TextEncoder().encode(batch!._body).length);
  });

  it('gives anonymous events the current customer', () => {
    const { _batch: batch, _rest: rest } = takeBatch([event({ customerId: undefined })], () => 'late', 1_800_000_000, 60_000);
    expect(JSON.parse(batch!._body).elements[0].customer_id).toBe('late');
    expect(rest).toEqual([]);
  });

  it('clamps event_time to the moment of sending (a clock moved back)', () => {
    const { _batch: batch } = takeBatch([event({ time: 2_000_000_000 })], () => undefined, 1_900_000_000, 60_000);
    expect(JSON.parse(batch!._body).elements[0].actions[0].event_time).toBe(1_900_000_000);
  });

  it('keeps every body within maxBytes and 100 elements, and loses nothing', () => {
    const events = Array.from({ length: 1_000 }, (_, i) => event({ customerId: `user-${i % 150}`, attributes: { ...event().attributes, note: 'é'.repeat(100) } }));
    let rest = events;
    const seen: string[] = [];
    for (;;) {
      const taken = takeBatch(rest, () => undefined, 1_800_000_000, 20_000);
      if (!taken._batch) break;
      rest = taken._rest;
      expect(taken._batch._bytes).toBeLessThanOrEqual(20_000);
      const body = JSON.parse(taken._batch._body);
      expect(body.elements.length).toBeLessThanOrEqual(100);
      for (const element of body.elements) for (const action of element.actions) seen.push(action.svc_event_uuid);
    }
    expect(seen.sort()).toEqual(events.map((e) => e.uuid).sort());
  });

  it('sends one oversized event alone rather than never', () => {
    const big = event({ attributes: { ...event().attributes, blob: 'x'.repeat(500) } });
    const { _batch: batch, _rest: rest } = takeBatch([big, event()], () => undefined, 1_800_000_000, 100);
    expect(batch!._events).toEqual([big]);
    expect(rest.length).toBe(1);
  });
});

describe('utf8Length', () => {
  it.each(['ascii', 'é', '€uro', '😀 pair', '\ud800 lone', ''])('matches TextEncoder for %j', (text) => {
    expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
  });
});
