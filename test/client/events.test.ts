import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client';
import { isHttpError, isValidationError } from '../../src/errors';
import { rejection, startStack, type Stack } from './support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

type Stored = { customer_id: string; device_id?: string; action: string; attributes?: Record<string, unknown>; user_time?: unknown };
const storedFor = (id: string) => (stack.emulator.getEvents().events as unknown as Stored[]).filter((e) => e.customer_id === id);

describe('events.track against the real proxy and emulator', () => {
  it('one action: type "event" and device_id (= customer_id) filled in', async () => {
    const client = createClient({ endpoint: stack.endpoint });
    const answer = await client.events.track('user-one', { action: 'Viewed Plan', attributes: { plan: 'pro', price: 9.5 } });
    expect(answer.status).toBe('success');
    const [event] = storedFor('user-one');
    expect(event).toMatchObject({ action: 'Viewed Plan', attributes: { plan: 'pro', price: 9.5 } });
    expect(event!.device_id).toBe('user-one');
  });

  it('many actions in one request, a Date time sent as ISO 8601, an explicit device_id kept', async () => {
    const client = createClient({ endpoint: stack.endpoint });
    const when = new Date(Date.now() - 60_000);
    await client.events.track({ customer_id: 'user-many', device_id: 'dev-7' }, [
      { action: 'Added to Cart', attributes: { sku: 'A-1', tags: ['x', 'y'] }, user_time: when, platform: 'web' },
      { action: 'Checked Out', current_time: Math.floor(Date.now() / 1000) - 5 },
      { action: 'Rated', attributes: { stars: 5 } },
    ]);
    const events = storedFor('user-many');
    expect(events.map((e) => e.action)).toEqual(['Added to Cart', 'Checked Out', 'Rated']);
    expect(events[0]!.device_id).toBe('dev-7');
    expect(stack.requests('events').filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(2);
  });

  it.each([
    [[{ action: 'svc_internal' }], 'actions[0].action', /svc_/],
    [[{ action: 'Ok', attributes: { svc_flag: 1 } }], 'actions[0].attributes.svc_flag', /svc_/],
    [[{ action: 'Late', current_time: new Date(Date.now() + 3_600_000) }], 'actions[0].current_time', /future/],
    [[{ action: 'Late', user_time: Math.floor(Date.now() / 1000) + 3600 }], 'actions[0].user_time', /future/],
    [[], 'actions', /empty/],
    [[{ action: 'Ok', platform: 'Windows' }], 'actions[0].platform', /one of/],
    [[{ action: 'Ok', user_timezone_offset: 99999 }], 'actions[0].user_timezone_offset', /54000/],
  ])('refuses %j before sending (%s)', async (actions, field, rule) => {
    const client = createClient({ endpoint: stack.endpoint });
    const before = stack.requests('events').length;
    const error = await rejection(client.events.track('user-bad', actions as never));
    expect(isValidationError(error)).toBe(true);
    expect(error.field).toBe(field);
    expect(error.rule).toMatch(rule);
    expect(stack.requests('events').length).toBe(before);
  });

  it('refuses a missing customer_id (no identity resolution) before sending', async () => {
    const client = createClient({ endpoint: stack.endpoint });
    const error = await rejection(client.events.track({ user_identifiers: { svc_mobile: '+1555' } }, { action: 'A' }));
    expect(isValidationError(error) && error.field).toBe('customer_id');
  });

  it('429 (refused, nothing counted) is retried after Retry-After; the events are stored once', async () => {
    const s = await startStack();
    try {
      s.emulator.setFaults({ statuses: [429], retryAfterSeconds: 0, count: 1, operations: ['events'] });
      const client = createClient({ endpoint: s.endpoint });
      await client.events.track('user-429', { action: 'Signed Up' });
      expect(s.requests('events').map((r) => r.status)).toEqual([429, 200]);
      expect(s.emulator.getEvents().events.length).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('a 500 is not repeated (no dedup key upstream: a repeat could count twice) and is parsed', async () => {
    const s = await startStack();
    try {
      s.emulator.setFaults({ statuses: [500], count: 1, operations: ['events'] });
      const client = createClient({ endpoint: s.endpoint, retryBaseDelayMs: 1 });
      const error = await rejection(client.events.track('user-500', { action: 'Signed Up' }));
      expect(isHttpError(error)).toBe(true);
      expect(error.status).toBe(500);
      expect(error.upstream.code).toBe('ServerError');
      expect(error.upstream.message).toMatch(/unexpected/i);
      expect(s.requests('events').length).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('a connection reset upstream becomes the proxy 502, not repeated for events', async () => {
    const s = await startStack();
    try {
      s.emulator.setFaults({ statuses: ['reset'], count: 1, operations: ['events'] });
      const client = createClient({ endpoint: s.endpoint, retryBaseDelayMs: 1 });
      const error = await rejection(client.events.track('user-reset', { action: 'Signed Up' }));
      expect(isHttpError(error) && error.status).toBe(502);
      expect(s.requests('events').length).toBe(1);
    } finally {
      await s.close();
    }
  });
});
