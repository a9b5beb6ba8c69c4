// Conformance: every `svc_` name the upstream's own documentation uses is accepted where the
// upstream accepts it — by the emulator (the proof), and through the typed client and the proxy
// to that emulator. One test per identifier; an undocumented `svc_` name is still refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client';
import { call, dataFail, dataOk, useEmulator } from '../emulator/helpers.ts';
import { rejection, startStack, type Stack } from '../client/support';

const h = useEmulator({ limits: { campaignUpdatesPerSecond: 1000, campaignUpdatesPerMinute: 1000 } });
const user = (attributes: Record<string, unknown>) => ({ type: 'customer', customer_id: 'u-42', attributes });
const event = (extra: Record<string, unknown>) => ({ type: 'event', customer_id: 'u-42', actions: [{ action: 'Purchased' }], ...extra });

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const stored = (id: string) =>
  stack.emulator.getUsers().users.find((u) => (u as { customer_id?: string }).customer_id === id) as { attributes: Record<string, unknown> } | undefined;

describe('documented svc_ identifiers', () => {
  it('svc_mobile (the identity-resolution identifier) as a user attribute, with resolution off', async () => {
    expect(await call(h, 'users', user({ svc_mobile: '+919876500000' }))).toMatchObject(dataOk);
    expect(h.emulator.getUsers().users).toEqual([expect.objectContaining({ customer_id: 'u-42', attributes: expect.objectContaining({ svc_mobile: '+919876500000' }) })]);
    const client = createClient({ endpoint: stack.endpoint });
    await expect(client.users.upsert({ customer_id: 'u-mobile', attributes: { svc_mobile: '+919876500001' } })).resolves.toMatchObject({ status: 'success' });
    expect(stored('u-mobile')?.attributes).toMatchObject({ svc_mobile: '+919876500001' });
  });

  it('svc_mobile in an event’s user_identifiers, with resolution off', async () => {
    expect(await call(h, 'events', event({ user_identifiers: { svc_mobile: '+919876500000' } }))).toMatchObject(dataOk);
    expect(h.emulator.getEvents().events[0]).toMatchObject({ customer_id: 'u-42', user_identifiers: { svc_mobile: '+919876500000' } });
    const client = createClient({ endpoint: stack.endpoint });
    await expect(client.events.track({ customer_id: 'u-ev', user_identifiers: { svc_mobile: '+919876500002' } }, { action: 'Purchased' })).resolves.toMatchObject({
      status: 'success',
    });
    expect(stack.emulator.getEvents().events.at(-1)).toMatchObject({ customer_id: 'u-ev', user_identifiers: { svc_mobile: '+919876500002' } });
  });

  it('svc_gaid (create-only advertising id) as a user attribute', async () => {
    expect(await call(h, 'users', user({ svc_gaid: '38400000-8cf0-11bd-b23e-10b96e40000d' }))).toMatchObject(dataOk);
    const client = createClient({ endpoint: stack.endpoint });
    await expect(client.users.upsert({ customer_id: 'u-gaid', attributes: { svc_gaid: 'g-1' } })).resolves.toMatchObject({ status: 'success' });
    expect(stored('u-gaid')?.attributes).toMatchObject({ svc_gaid: 'g-1' });
  });

  it('svc_os_type on a TV event, as a field and inside attributes', async () => {
    expect(await call(h, 'events', event({ actions: [{ action: 'Played', platform: 'TV', svc_os_type: 'tvOS' }] }))).toMatchObject(dataOk);
    expect(await call(h, 'events', event({ actions: [{ action: 'Played', platform: 'TV', attributes: { svc_os_type: 'Xbox' } }] }))).toMatchObject(dataOk);
    const client = createClient({ endpoint: stack.endpoint });
    await expect(client.events.track({ customer_id: 'u-tv' }, { action: 'Played', platform: 'TV', svc_os_type: 'ROKU' } as never)).resolves.toMatchObject({
      status: 'success',
    });
  });

  it('an undocumented svc_ name is still refused, by emulator, client and proxy alike', async () => {
    expect(await call(h, 'users', user({ svc_mobile_backup: '+91' }))).toMatchObject(
      dataFail(400, 'InvalidAttributeError', 'attributes.svc_mobile_backup must not start with svc_ (reserved for the system)', 'attributes.svc_mobile_backup'),
    );
    const client = createClient({ endpoint: stack.endpoint });
    const error = await rejection(client.users.upsert({ customer_id: 'u-x', attributes: { svc_mobile_backup: '+91' } }));
    expect(error).toMatchObject({ code: 'ERR_VALIDATION', field: 'attributes.svc_mobile_backup' });
    const res = await fetch(`${stack.endpoint}/v1/customer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user({ svc_mobile_backup: '+91' })),
    });
    expect(res.status).toBe(400);
    expect(stack.emulator.getRequests().requests.filter((r) => r.status === 400)).toEqual([]);
  });
});
