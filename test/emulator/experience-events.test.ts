// Conformance: POST /v1/experiences/events — one accepted and one refused request per rule.
import { describe, expect, it } from 'vitest';
import { anyId, basic, call, KEYS, useEmulator, xpAction, xpBody } from './helpers.ts';

const h = useEmulator();

const invalid = (description: string) => ({ status: 400, body: { title: 'Invalid Field Value', description, code: anyId } });
const ok = { status: 200, body: { status: 'success', message: 'Your request has been accepted and will be processed soon.', req_id: anyId } };
const now = () => Math.floor(Date.now() / 1000);

describe('experience events: schema rules', () => {
  it('elements: required, 1 to 100', async () => {
    expect(await call(h, 'experienceEvents', {})).toMatchObject(invalid('elements is required'));
    expect(await call(h, 'experienceEvents', { elements: [] })).toMatchObject(invalid('elements must contain at least one element'));
    const element = xpBody().elements[0]!;
    const hundred = Array.from({ length: 100 }, () => ({ ...element, actions: [xpAction()] }));
    expect(await call(h, 'experienceEvents', { elements: hundred })).toMatchObject(ok);
    const more = [...hundred.map((e) => ({ ...e, actions: [xpAction()] })), { ...element, actions: [xpAction()] }];
    expect(await call(h, 'experienceEvents', { elements: more })).toMatchObject(invalid('elements must contain at most 100 elements'));
    expect(h.emulator.getExperienceEvents().unique).toBe(100);
  });

  it('customer_id: a non-empty string', async () => {
    expect(await call(h, 'experienceEvents', xpBody(undefined, { customer_id: 'u-1' }))).toMatchObject(ok);
    expect(await call(h, 'experienceEvents', xpBody(undefined, { customer_id: undefined }))).toMatchObject(invalid('elements[0].customer_id is required'));
    expect(await call(h, 'experienceEvents', xpBody(undefined, { customer_id: '  ' }))).toMatchObject(invalid('elements[0].customer_id must be a non-empty string'));
  });

  it('user_timezone_offset: integer seconds in [-54000, 54000]', async () => {
    for (const offset of [-54000, 0, 19800, 54000]) {
      expect(await call(h, 'experienceEvents', xpBody([xpAction()], { user_timezone_offset: offset }))).toMatchObject(ok);
    }
    expect(await call(h, 'experienceEvents', xpBody([xpAction()], { user_timezone_offset: 54001 }))).toMatchObject(
      invalid('elements[0].user_timezone_offset must be between -54000 and 54000'),
    );
    expect(await call(h, 'experienceEvents', xpBody([xpAction()], { user_timezone_offset: 19800.5 }))).toMatchObject(
      invalid('elements[0].user_timezone_offset must be an integer (seconds east of UTC)'),
    );
  });

  it('actions: a non-empty array', async () => {
    expect(await call(h, 'experienceEvents', xpBody([]))).toMatchObject(invalid('elements[0].actions must contain at least one action'));
    expect(await call(h, 'experienceEvents', { elements: [{ customer_id: 'u-1' }] })).toMatchObject(invalid('elements[0].actions is required'));
  });

  it('action: SHOWN or CLICKED, case-sensitive', async () => {
    expect(await call(h, 'experienceEvents', xpBody([xpAction({ action: 'SVC_PERSONALIZATION_MESSAGE_CLICKED' })]))).toMatchObject(ok);
    expect(await call(h, 'experienceEvents', xpBody([xpAction({ action: 'svc_personalization_message_shown' })]))).toMatchObject(
      invalid('elements[0].actions[0].action must be one of SVC_PERSONALIZATION_MESSAGE_SHOWN, SVC_PERSONALIZATION_MESSAGE_CLICKED'),
    );
  });

  it('svc_event_uuid: required, a UUID v4', async () => {
    expect(await call(h, 'experienceEvents', xpBody([xpAction({ svc_event_uuid: 'AA886712-4537-47C1-B126-2686EFDA2E26' })]))).toMatchObject(ok);
    expect(await call(h, 'experienceEvents', xpBody([xpAction({ svc_event_uuid: 'c232ab00-9414-11ec-b3c8-9f6bdeced846' })]))).toMatchObject(
      invalid('elements[0].actions[0].svc_event_uuid must be a UUID v4'),
    );
    expect(await call(h, 'experienceEvents', xpBody([xpAction({ svc_event_uuid: undefined })]))).toMatchObject(
      invalid('elements[0].actions[0].svc_event_uuid is required'),
    );
  });

  it('event_time: integer epoch seconds, not in the future (60 s skew allowed)', async () => {
    expect(await call(h, 'experienceEvents', xpBody([xpAction({ event_time: now() + 30 })]))).toMatchObject(ok);
    expect(await call(h, 'experienceEvents', xpBody([xpAction({ event_time: now() + 600 })]))).toMatchObject(
      invalid('elements[0].actions[0].event_time must not be in the future (epoch seconds, not milliseconds)'),
    );
    // Milliseconds by mistake land far in the future.
    expect(await call(h, 'experienceEvents', xpBody([xpAction({ event_time: Date.now() })]))).toMatchObject(
      invalid('elements[0].actions[0].event_time must not be in the future (epoch seconds, not milliseconds)'),
    );
    expect(await call(h, 'experienceEvents', xpBody([xpAction({ event_time: String(now()) })]))).toMatchObject(
      invalid('elements[0].actions[0].event_time must be a non-negative integer (epoch seconds)'),
    );
  });

  it('platform: web/android/ios/tv any case; anything else recorded as Unknown (both documented)', async () => {
    const a = xpAction({ platform: 'iOS' });
    const b = xpAction({ platform: 'smart-fridge' });
    const c = xpAction({ platform: undefined });
    expect(await call(h, 'experienceEvents', xpBody([a, b, c]))).toMatchObject(ok);
    const events = h.emulator.getExperienceEvents().events;
    expect(events.map((e) => e.platform)).toEqual(['ios', 'Unknown', 'Unknown']);
    expect(await call(h, 'experienceEvents', xpBody([xpAction({ platform: 7 })]))).toMatchObject(invalid('elements[0].actions[0].platform must be a string'));
  });

  it('attributes: the six context keys are required strings; extra keys are accepted', async () => {
    const extra = xpAction();
    Object.assign(extra.attributes as object, { b_id: 'Add to Cart', plan: 'pro', price: 9.5, member: true });
    expect(await call(h, 'experienceEvents', xpBody([extra]))).toMatchObject(ok);
    expect(h.emulator.getExperienceEvents().events[0]!.attributes).toMatchObject({ b_id: 'Add to Cart', plan: 'pro', price: 9.5, member: true });
    for (const key of ['cid', 'experience', 'svc_locale_id', 'svc_variation_id', 'audience_name', 'audience_id']) {
      const action = xpAction();
      delete (action.attributes as Record<string, unknown>)[key];
      expect(await call(h, 'experienceEvents', xpBody([action]))).toMatchObject(invalid(`elements[0].actions[0].attributes.${key} is required`));
      const wrong = xpAction();
      (wrong.attributes as Record<string, unknown>)[key] = 5;
      expect(await call(h, 'experienceEvents', xpBody([wrong]))).toMatchObject(invalid(`elements[0].actions[0].attributes.${key} must be a string`));
    }
    expect(await call(h, 'experienceEvents', xpBody([xpAction({ attributes: undefined })]))).toMatchObject(invalid('elements[0].actions[0].attributes is required'));
  });

  it('attributes.type: optional; any string accepted (spec: a string; facts: enum "Web Personalization")', async () => {
    const action = xpAction();
    (action.attributes as Record<string, unknown>).type = 'Server Side';
    expect(await call(h, 'experienceEvents', xpBody([action]))).toMatchObject(ok);
    const wrong = xpAction();
    (wrong.attributes as Record<string, unknown>).type = 3;
    expect(await call(h, 'experienceEvents', xpBody([wrong]))).toMatchObject(invalid('elements[0].actions[0].attributes.type must be a string'));
  });

  it('b_id: accepted at action level (schema) and inside attributes (examples)', async () => {
    expect(await call(h, 'experienceEvents', xpBody([xpAction({ b_id: 'Wishlist' })]))).toMatchObject(ok);
    expect(h.emulator.getExperienceEvents().events[0]!.b_id).toBe('Wishlist');
    expect(await call(h, 'experienceEvents', xpBody([xpAction({ b_id: ['x'] })]))).toMatchObject(invalid('elements[0].actions[0].b_id must be a string'));
  });

  it('refuses the whole batch when one event is bad: nothing is stored', async () => {
    const res = await call(h, 'experienceEvents', xpBody([xpAction(), xpAction({ action: 'NOPE' })]));
    expect(res.status).toBe(400);
    expect(h.emulator.getExperienceEvents()).toEqual({ unique: 0, duplicates: 0, events: [] });
  });
});

describe('experience events: dedup by svc_event_uuid', () => {
  it('stores an event once and counts each re-send as a duplicate, within and across requests', async () => {
    const a = xpAction();
    const b = xpAction({ action: 'SVC_PERSONALIZATION_MESSAGE_CLICKED' });
    expect(await call(h, 'experienceEvents', xpBody([a, b, { ...a }]))).toMatchObject(ok);
    expect(await call(h, 'experienceEvents', xpBody([a, b]))).toMatchObject(ok);
    const state = h.emulator.getExperienceEvents();
    expect(state.unique).toBe(2);
    expect(state.duplicates).toBe(3);
    expect(state.events.map((e) => e.svc_event_uuid)).toEqual([a.svc_event_uuid, b.svc_event_uuid]);
    expect(state.events[0]).toEqual({
      customer_id: 'john@example.com',
      user_timezone_offset: 19800,
      action: 'SVC_PERSONALIZATION_MESSAGE_SHOWN',
      svc_event_uuid: a.svc_event_uuid,
      event_time: a.event_time,
      platform: 'web',
      attributes: a.attributes,
    });
  });

  it('creates the user of an unknown customer_id, with user_attributes', async () => {
    await call(h, 'experienceEvents', xpBody([xpAction()], { customer_id: 'new@example.com', user_attributes: { first_name: 'Ada' } }));
    const users = h.emulator.getUsers().users;
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ customer_id: 'new@example.com', attributes: { first_name: 'Ada' } });
  });
});

describe('experience events: authentication', () => {
  it('Basic with the workspace ID and the personalization key; SVC-APPKEY required (400 when absent)', async () => {
    expect(await call(h, 'experienceEvents', xpBody())).toMatchObject(ok);
    expect(await call(h, 'experienceEvents', xpBody(), { headers: { authorization: basic(KEYS.data) } })).toMatchObject({
      status: 401,
      body: { title: 'Authentication required', description: 'Invalid API_KEY used in Authentication Header' },
    });
    const missing = await call(h, 'experienceEvents', xpBody(), { headers: { authorization: undefined } });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ title: 'Authentication required', description: 'Invalid API_KEY used in Authentication Header' });
    expect(await call(h, 'experienceEvents', xpBody(), { headers: { 'svc-appkey': undefined } })).toMatchObject(invalid('SVC-APPKEY header is missing'));
    expect(await call(h, 'experienceEvents', xpBody(), { headers: { 'svc-appkey': 'OTHER' } })).toMatchObject(invalid('SVC-APPKEY header does not name this workspace'));
    expect(h.emulator.getExperienceEvents().unique).toBe(1);
  });
});
