import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client';
import { isHttpError, isValidationError } from '../../src/errors';
import { rejection, startStack, type Stack } from './support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const user = (id: string) =>
  stack.emulator.getUsers().users.find((u) => (u as { customer_id?: string }).customer_id === id) as
    { customer_id: string; attributes: Record<string, unknown> } | undefined;

describe('users.upsert against the real proxy and emulator', () => {
  it('fills in type "customer", sends Dates as ISO 8601 and arrays as arrays, and the upstream stores them', async () => {
    const client = createClient({ endpoint: stack.endpoint });
    const answer = await client.users.upsert({
      customer_id: 'user-ada',
      attributes: { u_fn: 'Ada', u_bd: new Date(Date.UTC(1990, 4, 1)), interests: ['math', 'engines'], vip: true, visits: 3 },
      platforms: [{ platform: 'web', active: 'true' }],
    });
    expect(answer.status).toBe('success');
    const stored = user('user-ada');
    expect(stored?.attributes).toMatchObject({ u_fn: 'Ada', u_bd: '1990-05-01T00:00:00.000Z', interests: ['math', 'engines'], vip: true, visits: 3 });
  });

  it('update_existing_only: an unknown user is not created', async () => {
    const client = createClient({ endpoint: stack.endpoint });
    const before = stack.emulator.getUsers().skipped_updates;
    await client.users.upsert({ customer_id: 'user-nobody', update_existing_only: true, attributes: { u_fn: 'No' } });
    expect(user('user-nobody')).toBeUndefined();
    expect(stack.emulator.getUsers().skipped_updates).toBe(before + 1);
  });

  it.each([
    [{ customer_id: 'user-x', attributes: { id: 'a' } }, 'attributes.id'],
    [{ customer_id: 'user-x', attributes: { _id: 'a' } }, 'attributes._id'],
    [{ customer_id: 'user-x', attributes: { '': 'a' } }, 'attributes'],
    [{ customer_id: 'user-x', attributes: { svc_secret: 'a' } }, 'attributes.svc_secret'],
    [{ customer_id: 'user-x', platforms: [{ platform: 'Android' }] }, 'platforms[0].platform'],
    [{ customer_id: 'user-x', platforms: [{ platform: 'web', active: true }] }, 'platforms[0].active'],
    [{ customer_id: 'x' }, 'customer_id'],
    [{ customer_id: 'null' }, 'customer_id'],
    [{ attributes: { u_fn: 'No id' } }, 'customer_id'],
    [{ customer_id: 'user-x', attributes: { born: new Date('nope') } }, 'attributes.born'],
  ])('refuses %j before sending (field %s)', async (body, field) => {
    const client = createClient({ endpoint: stack.endpoint });
    const before = stack.requests('users').length;
    const error = await rejection(client.users.upsert(body as never));
    expect(isValidationError(error)).toBe(true);
    expect(error.field).toBe(field);
    expect(error.rule).toMatch(/\w/);
    expect(stack.requests('users').length).toBe(before);
  });

  it('with identityResolution: an identifier stands in for customer_id; the upstream refusal is parsed when the workspace lacks it', async () => {
    const client = createClient({ endpoint: stack.endpoint, identityResolution: { identifiers: ['svc_mobile'] } });
    // Refused locally: neither customer_id nor an identifier.
    const local = await rejection(client.users.upsert({ attributes: { u_fn: 'Anon' } }));
    expect(isValidationError(local) && local.field).toBe('attributes');
    // This emulator (and proxy) run without identity resolution: their 400 comes back parsed.
    const error = await rejection(client.users.upsert({ attributes: { svc_mobile: '+15550100' } }));
    expect(isHttpError(error)).toBe(true);
    expect(error.status).toBe(400);
    expect(error.upstream).toMatchObject({ code: 'MissingAttributeError', target: 'customer_id' });
    expect(error.upstream.requestId).toMatch(/^[A-Za-z]{8}$/);
    expect(error.body).toMatchObject({ status: 'fail', error: { attribute: 'customer_id', type: 'MissingAttributeError' } });
  });

  it('with identityResolution on both sides: an identifier-only user is accepted', async () => {
    const ir = await startStack({ emulator: { identityResolution: { identifiers: ['svc_mobile'] } }, proxy: { identityResolution: { identifiers: ['svc_mobile'] } } });
    try {
      const client = createClient({ endpoint: ir.endpoint, identityResolution: { identifiers: ['svc_mobile'] } });
      await expect(client.users.upsert({ attributes: { svc_mobile: '+15550100', u_fn: 'Anon' } })).resolves.toMatchObject({ status: 'success' });
      expect(ir.emulator.getUsers().count).toBe(1);
    } finally {
      await ir.close();
    }
  });

  it('a wrong key upstream (401) is an HttpError with the parsed standard-data body, not retried', async () => {
    const s = await startStack();
    try {
      s.emulator.rotateKey('data');
      const client = createClient({ endpoint: s.endpoint, retryBaseDelayMs: 1 });
      const error = await rejection(client.users.upsert({ customer_id: 'user-ada' }));
      expect(isHttpError(error)).toBe(true);
      expect(error.status).toBe(401);
      expect(error.upstream.code).toBe('Authentication required');
      expect(error.message).not.toContain('emulator-data-key');
      expect(s.requests('users').length).toBe(1);
    } finally {
      await s.close();
    }
  });
});

describe('users.upsert size limit', () => {
  it('a body over the upstream 128 KB is refused before sending (field body)', async () => {
    const client = createClient({ endpoint: stack.endpoint });
    const attributes: Record<string, string> = {};
    for (let i = 0; i < 300; i++) attributes[`attr_${i}`] = 'x'.repeat(500);
    const before = stack.requests('users').length;
    const error = await rejection(client.users.upsert({ customer_id: 'user-big', attributes }));
    expect(isValidationError(error) && error.field).toBe('body');
    expect(error.rule).toMatch(/131072 bytes/);
    expect(stack.requests('users').length).toBe(before);
  });
});
