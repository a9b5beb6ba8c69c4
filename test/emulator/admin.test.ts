// Admin API under /_emulator/: inspection, key rotation, request log, reset; and the
// in-code equivalents. Keys never appear in the log.
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator/index.ts';
import { admin, basic, call, KEYS, start, useEmulator, WORKSPACE, xpAction, xpBody } from './helpers.ts';

const h = useEmulator({ limits: false });

describe('defaults', () => {
  it('works with no options: workspace and keys as documented', () => {
    const emulator = createEmulator();
    expect(emulator.workspaceId).toBe('ENGAGEDEMO01');
    expect(emulator.keys).toEqual({ data: 'emulator-data-key', personalize: 'emulator-personalize-key', campaign: 'emulator-campaign-key' });
  });

  it('takes workspace and keys from options', async () => {
    const custom = await start({ workspaceId: 'WS2', keys: { data: 'd2' } });
    try {
      expect(custom.emulator.keys).toEqual({ data: 'd2', personalize: 'emulator-personalize-key', campaign: 'emulator-campaign-key' });
      const res = await fetch(`${custom.url}/v1/customer/WS2`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basic('d2', 'WS2') },
        body: JSON.stringify({ type: 'customer', customer_id: 'u-42' }),
      });
      expect(res.status).toBe(200);
    } finally {
      await custom.close();
    }
  });
});

describe('inspection', () => {
  it('GET experience-events, users, events, campaigns/{id}, requests', async () => {
    const a = xpAction();
    await call(h, 'experienceEvents', xpBody([a, a]));
    await call(h, 'users', { type: 'customer', customer_id: 'u-42', attributes: { plan: 'pro' } });
    await call(h, 'events', { type: 'event', customer_id: 'u-42', actions: [{ action: 'A' }, { action: 'B' }] });
    const xp = await admin(h, 'experience-events');
    expect(xp.body).toMatchObject({ unique: 1, duplicates: 1 });
    expect(xp.body.events[0]).toMatchObject({ svc_event_uuid: a.svc_event_uuid, action: a.action, customer_id: 'john@example.com' });
    const users = await admin(h, 'users');
    expect(users.body.count).toBe(2);
    expect(users.body.users.map((u: { customer_id: string }) => u.customer_id)).toEqual(['john@example.com', 'u-42']);
    const events = await admin(h, 'events');
    expect(events.body.count).toBe(2);
    expect(events.body.events.map((e: { action: string }) => e.action)).toEqual(['A', 'B']);
    const campaign = await admin(h, 'campaigns/camp_push_event_sent');
    expect(campaign.body).toMatchObject({ id: 'camp_push_event_sent', channel: 'PUSH', scheduling_type: 'EVENT_TRIGGERED', origin: 'API', instance_sent: true });
    expect((await admin(h, 'campaigns/nope')).status).toBe(404);
    const log = await admin(h, 'requests');
    expect(log.body.requests.map((r: Record<string, unknown>) => [r.method, r.path, r.status, r.operation, r.fault])).toEqual([
      ['POST', '/v1/experiences/events', 200, 'experienceEvents', false],
      ['POST', `/v1/customer/${WORKSPACE}`, 200, 'users', false],
      ['POST', `/v1/event/${WORKSPACE}`, 200, 'events', false],
    ]);
    expect(log.body.requests[0].time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('the request log never holds a key or an Authorization header', async () => {
    await call(h, 'users', { type: 'customer', customer_id: 'u-42' }, { headers: { authorization: basic('wrong-secret-key') } });
    await call(h, 'users', { type: 'customer', customer_id: 'u-42' });
    const text = JSON.stringify((await admin(h, 'requests')).body);
    for (const secret of [KEYS.data, KEYS.personalize, KEYS.campaign, 'wrong-secret-key', basic(KEYS.data)]) expect(text).not.toContain(secret);
  });

  it('admin routes: 404 for unknown, 405 for the wrong method', async () => {
    expect((await admin(h, 'nothing-here')).status).toBe(404);
    const wrong = await fetch(`${h.url}/_emulator/users`, { method: 'POST' });
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET']);
    const badJson = await fetch(`${h.url}/_emulator/faults`, { method: 'POST', body: '{nope' });
    expect(badJson.status).toBe(400);
  });
});

describe('key rotation', () => {
  it('POST /_emulator/keys/rotate returns a new key; the old one stops working at once', async () => {
    const rotating = await start();
    try {
      const res = await admin(rotating, 'keys/rotate', { body: { tile: 'personalize' } });
      expect(res.status).toBe(200);
      expect(res.body.tile).toBe('personalize');
      expect(res.body.key).toMatch(/^personalize-[0-9a-f]{32}$/);
      expect(rotating.emulator.keys.personalize).toBe(res.body.key);
      const old = await call(rotating, 'experienceEvents', xpBody());
      expect(old).toMatchObject({ status: 401, body: { title: 'Authentication required', description: 'Invalid API_KEY used in Authentication Header' } });
      const fresh = await call(rotating, 'experienceEvents', xpBody(), { headers: { authorization: basic(res.body.key) } });
      expect(fresh.status).toBe(200);
      // Other tiles are untouched.
      expect((await call(rotating, 'users', { type: 'customer', customer_id: 'u-42' })).status).toBe(200);
      expect((await admin(rotating, 'keys/rotate', { body: { tile: 'admin' } })).body).toEqual({ error: 'tile must be one of data, personalize, campaign' });
      // In code as well.
      const key = rotating.emulator.rotateKey('data');
      expect((await call(rotating, 'users', { type: 'customer', customer_id: 'u-42' })).status).toBe(401);
      expect((await call(rotating, 'users', { type: 'customer', customer_id: 'u-42' }, { headers: { authorization: basic(key) } })).status).toBe(200);
    } finally {
      await rotating.close();
    }
  });
});

describe('reset', () => {
  it('clears received data, faults and the log; restores the seeds; keeps the keys', async () => {
    await call(h, 'experienceEvents', xpBody());
    await call(h, 'campaignUpdate', { request_id: 'r', updated_by: 'a@b.co', basic_details: { name: 'n', platforms: ['WEB'], platform_specific_details: {} } });
    await admin(h, 'faults', { body: { statuses: [500], operations: ['events'] } });
    const key = h.emulator.keys;
    expect((await admin(h, 'reset', { body: {} })).body).toEqual({ reset: true });
    expect((await admin(h, 'experience-events')).body).toEqual({ unique: 0, duplicates: 0, events: [] });
    expect((await admin(h, 'faults')).body).toEqual({ faults: null });
    expect((await admin(h, 'requests')).body).toEqual({ requests: [] });
    expect((await admin(h, 'campaigns/camp_abc123xyz')).body).toMatchObject({ update_count: 0, updated_by: null });
    expect(h.emulator.keys).toEqual(key);
  });
});
