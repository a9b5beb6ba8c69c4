// Conformance: POST /v1/event/{workspaceId} — one accepted and one refused request per rule.
import { describe, expect, it } from 'vitest';
import { call, dataFail as fail, dataOk as ok, start, useEmulator } from './helpers.ts';

const h = useEmulator();
const ir = useEmulator({ identityResolution: { identifiers: ['svc_mobile'] } });

const event = (extra: Record<string, unknown> = {}) => ({ type: 'event', customer_id: 'u-42', actions: [{ action: 'Purchased' }], ...extra });
const MALFORMED = 'Could not decode the request body. The JSON was incorrect or not encoded as UTF-8.';

describe('events: rules', () => {
  it('type: "event", case-sensitive', async () => {
    expect(await call(h, 'events', event())).toMatchObject(ok);
    expect(await call(h, 'events', event({ type: 'Event' }))).toMatchObject(fail(400, 'InvalidAttributeError', 'type must be "event" (case-sensitive)', 'type'));
  });

  it('actions: required and non-empty', async () => {
    expect(await call(h, 'events', event({ actions: [] }))).toMatchObject(fail(400, 'MissingAttributeError', 'actions can not be empty Array', 'actions'));
    expect(await call(h, 'events', event({ actions: undefined }))).toMatchObject(fail(400, 'MissingAttributeError', 'actions is not found in the payload', 'actions'));
    expect(await call(h, 'events', event({ actions: [{ action: 'A' }, { action: 'B' }, { action: 'C' }] }))).toMatchObject(ok);
    expect(h.emulator.getEvents().count).toBe(3);
  });

  it('action: required, a string', async () => {
    expect(await call(h, 'events', event({ actions: [{ attributes: {} }] }))).toMatchObject(
      fail(400, 'MissingAttributeError', 'actions[0].action is not found in the payload', 'actions[0].action'),
    );
    expect(await call(h, 'events', event({ actions: [{ action: 12 }] }))).toMatchObject(fail(400, 'Malformed JSON', MALFORMED, 'actions[0].action'));
  });

  it('customer_id: required unless identity resolution with user_identifiers', async () => {
    expect(await call(h, 'events', event({ customer_id: undefined }))).toMatchObject(
      fail(400, 'MissingAttributeError', 'customer_id is not found in the payload', 'customer_id'),
    );
    expect(await call(ir, 'events', event({ customer_id: undefined, user_identifiers: { svc_mobile: '+919876500000' } }))).toMatchObject(ok);
    expect(await call(ir, 'events', event({ customer_id: undefined, user_identifiers: { email: 'a@b.co' } }))).toMatchObject(
      fail(400, 'MissingAttributeError', 'user_identifiers must contain one of svc_mobile when customer_id is absent', 'user_identifiers'),
    );
    expect(ir.emulator.getEvents().events[0]).toMatchObject({ customer_id: null, user_identifiers: { svc_mobile: '+919876500000' } });
  });

  it('device_id: defaults to customer_id', async () => {
    await call(h, 'events', event());
    await call(h, 'events', event({ device_id: 'device-9' }));
    expect(h.emulator.getEvents().events.map((e) => e.device_id)).toEqual(['u-42', 'device-9']);
    expect(await call(h, 'events', event({ device_id: 9 }))).toMatchObject(fail(400, 'Malformed JSON', 'device_id must be a string', 'device_id'));
  });

  it('future-dated events are refused (ISO 8601, epoch seconds or 13-digit milliseconds)', async () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    expect(await call(h, 'events', event({ actions: [{ action: 'A', current_time: past, user_time: String(past * 1000) }] }))).toMatchObject(ok);
    expect(await call(h, 'events', event({ actions: [{ action: 'A', current_time: new Date(Date.now() - 1000).toISOString() }] }))).toMatchObject(ok);
    const future = [Math.floor(Date.now() / 1000) + 3600, String(Date.now() + 3_600_000), new Date(Date.now() + 3_600_000).toISOString()];
    for (const time of future) {
      expect(await call(h, 'events', event({ actions: [{ action: 'A', current_time: time }] }))).toMatchObject(
        fail(400, 'InvalidAttributeError', 'actions[0].current_time must not be in the future', 'actions[0].current_time'),
      );
    }
    expect(await call(h, 'events', event({ actions: [{ action: 'A', user_time: 'yesterday' }] }))).toMatchObject(
      fail(400, 'InvalidAttributeError', 'actions[0].user_time must be an ISO 8601 date-time or epoch seconds (or milliseconds)', 'actions[0].user_time'),
    );
  });

  it('svc_ names are refused for events and event attributes (svc_os_type excepted)', async () => {
    expect(await call(h, 'events', event({ actions: [{ action: 'svc_login' }] }))).toMatchObject(
      fail(400, 'InvalidAttributeError', 'actions[0].action must not start with svc_ (reserved for the system)', 'actions[0].action'),
    );
    expect(await call(h, 'events', event({ actions: [{ action: 'A', attributes: { svc_x: 1 } }] }))).toMatchObject(
      fail(400, 'InvalidAttributeError', 'actions[0].attributes.svc_x must not start with svc_ (reserved for the system)', 'actions[0].attributes.svc_x'),
    );
    expect(await call(h, 'events', event({ actions: [{ action: 'A', platform: 'TV', attributes: { svc_os_type: 'Xbox', list: [1, 2] } }] }))).toMatchObject(ok);
  });

  it('platform: ANDROID | iOS | web | TV | unknown, any case', async () => {
    expect(
      await call(
        h,
        'events',
        event({
          actions: [
            { action: 'A', platform: 'Android' },
            { action: 'B', platform: 'unknown' },
          ],
        }),
      ),
    ).toMatchObject(ok);
    expect(await call(h, 'events', event({ actions: [{ action: 'A', platform: 'Fridge' }] }))).toMatchObject(
      fail(400, 'InvalidAttributeError', 'actions[0].platform must be one of ANDROID, iOS, web, TV, unknown', 'actions[0].platform'),
    );
    expect(await call(h, 'events', event({ actions: [{ action: 'A', platform: 'TV', svc_os_type: 'Commodore' }] }))).toMatchObject(
      fail(400, 'InvalidAttributeError', 'actions[0].svc_os_type must be one of ROKU, WebOS, AndroidTV, tvOS, Tizen, FireOS, VizioTV, Xbox', 'actions[0].svc_os_type'),
    );
  });

  it('without any time, current_time is the time the upstream received the event', async () => {
    await call(h, 'events', event());
    const stored = h.emulator.getEvents().events[0]!;
    expect(stored.current_time).toBe(stored.received_at);
  });

  it('payload limit 128 KB → 413 PayloadTooLarge', async () => {
    const actions = Array.from({ length: 9000 }, () => ({ action: 'a' }));
    expect(await call(h, 'events', event({ actions }))).toMatchObject(fail(413, 'PayloadTooLarge', 'Payload size exceeds 128 KB'));
    expect(h.emulator.getEvents().count).toBe(0);
  });
});

describe('events: 30,000 events per minute per workspace', () => {
  it('counts events (not requests); the next event over the budget is refused 429 with Retry-After', async () => {
    let t = Date.parse('2026-03-01T00:00:00Z');
    const limited = await start({ now: () => t });
    try {
      const batch = event({ actions: Array.from({ length: 7500 }, () => ({ action: 'a' })) });
      for (let i = 0; i < 4; i++) expect(await call(limited, 'events', batch)).toMatchObject(ok);
      const refused = await call(limited, 'events', event());
      expect(refused).toMatchObject(fail(429, 'Rate Limits Exceeded', 'Rate limits for customers exceeded. Please Try After Some Time'));
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited.emulator.getEvents().count).toBe(30_000);
      t += 60_500;
      expect(await call(limited, 'events', event())).toMatchObject(ok);
    } finally {
      await limited.close();
    }
  });
});

describe('events: fair-use limits of the data tracking policy', () => {
  it('values longer than 512 characters are truncated, attributes past 100 are dropped (accepted, not refused)', async () => {
    const attributes: Record<string, unknown> = { long: 'x'.repeat(600) };
    for (let i = 0; i < 120; i++) attributes[`a${i}`] = i;
    expect(await call(h, 'events', event({ actions: [{ action: 'A', attributes }] }))).toMatchObject(ok);
    const stored = h.emulator.getEvents().events[0]!.attributes;
    expect((stored.long as string).length).toBe(512);
    expect(Object.keys(stored)).toHaveLength(100);
  });
});
