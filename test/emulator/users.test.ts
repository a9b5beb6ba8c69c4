// Conformance: POST /v1/customer/{workspaceId} — one accepted and one refused request per rule.
import { describe, expect, it } from 'vitest';
import { basic, call, dataFail as fail, dataOk as ok, KEYS, start, useEmulator, WORKSPACE } from './helpers.ts';

const h = useEmulator();
const ir = useEmulator({ identityResolution: { identifiers: ['svc_mobile', 'u_em'] } });

const user = (extra: Record<string, unknown> = {}) => ({ type: 'customer', customer_id: 'u-42', attributes: { first_name: 'Ada' }, ...extra });

describe('users: rules', () => {
  it('type: "customer", case-sensitive', async () => {
    expect(await call(h, 'users', user())).toMatchObject(ok);
    expect(await call(h, 'users', user({ type: 'Customer' }))).toMatchObject(fail(400, 'InvalidAttributeError', 'type must be "customer" (case-sensitive)', 'type'));
    expect(await call(h, 'users', user({ type: undefined }))).toMatchObject(fail(400, 'MissingAttributeError', 'type is not found in the payload', 'type'));
  });

  it('customer_id: required, not empty, not a placeholder, longer than one character', async () => {
    expect(await call(h, 'users', user({ customer_id: undefined }))).toMatchObject(
      fail(400, 'MissingAttributeError', 'customer_id is not found in the payload', 'customer_id'),
    );
    expect(await call(h, 'users', user({ customer_id: '' }))).toMatchObject(
      fail(400, 'MissingAttributeError', 'customer_id can not be empty Unicode String', 'customer_id'),
    );
    expect(await call(h, 'users', user({ customer_id: 'null' }))).toMatchObject(
      fail(400, 'InvalidAttributeError', 'customer_id must not be a placeholder value such as null', 'customer_id'),
    );
    expect(await call(h, 'users', user({ customer_id: 'x' }))).toMatchObject(
      fail(400, 'InvalidAttributeError', 'customer_id must be longer than one character', 'customer_id'),
    );
    expect(await call(h, 'users', user({ customer_id: 42 }))).toMatchObject(
      fail(400, 'Malformed JSON', 'Could not decode the request body. The JSON was incorrect or not encoded as UTF-8.', 'customer_id'),
    );
    expect(h.emulator.getUsers().count).toBe(0);
  });

  it('identity resolution: customer_id optional when an identifier attribute is present', async () => {
    expect(await call(ir, 'users', { type: 'customer', attributes: { svc_mobile: '+919876500000', first_name: 'Ada' } })).toMatchObject(ok);
    // A second call with another identifier value of the same user merges into that user.
    expect(await call(ir, 'users', { type: 'customer', attributes: { svc_mobile: '+919876500000', u_em: 'ada@example.com' } })).toMatchObject(ok);
    expect(ir.emulator.getUsers().users).toEqual([
      expect.objectContaining({ customer_id: null, attributes: { svc_mobile: '+919876500000', first_name: 'Ada', u_em: 'ada@example.com' } }),
    ]);
    expect(await call(ir, 'users', { type: 'customer', attributes: { first_name: 'Ada' } })).toMatchObject(
      fail(400, 'MissingAttributeError', 'attributes must contain customer_id or one of the identifiers svc_mobile, u_em', 'attributes'),
    );
    // Without identity resolution the same body lacks customer_id.
    expect(await call(h, 'users', { type: 'customer', attributes: { svc_mobile: '+919876500000' } })).toMatchObject(
      fail(400, 'MissingAttributeError', 'customer_id is not found in the payload', 'customer_id'),
    );
  });

  it('attribute names: id, _id and the empty name are blocked', async () => {
    for (const name of ['id', '_id']) {
      expect(await call(h, 'users', user({ attributes: { [name]: 'x' } }))).toMatchObject(
        fail(400, 'InvalidAttributeError', `attributes.${name} must not use the blocked name "${name}"`, `attributes.${name}`),
      );
    }
    expect(await call(h, 'users', user({ attributes: { '': 'x' } }))).toMatchObject(
      fail(400, 'InvalidAttributeError', 'attributes must not use the blocked name ""', 'attributes'),
    );
    expect(await call(h, 'users', user({ attributes: { uid: 'x', identity: 'y' } }))).toMatchObject(ok);
  });

  it('the svc_ prefix is reserved; documented system attributes are accepted', async () => {
    expect(await call(h, 'users', user({ attributes: { svc_favourite: 'x' } }))).toMatchObject(
      fail(400, 'InvalidAttributeError', 'attributes.svc_favourite must not start with svc_ (reserved for the system)', 'attributes.svc_favourite'),
    );
    expect(await call(h, 'users', user({ attributes: { svc_sub_w: true, svc_email_optin_status: 'OPTED_OUT' } }))).toMatchObject(ok);
  });

  it('platforms: ANDROID | iOS | web with active the string "true"/"false" (never a boolean), at top level or inside attributes', async () => {
    expect(await call(h, 'users', user({ platforms: [{ platform: 'web', active: 'true' }] }))).toMatchObject(ok);
    expect(
      await call(
        h,
        'users',
        user({
          attributes: {
            platforms: [
              { platform: 'iOS', active: 'false' },
              { platform: 'ANDROID', active: 'true' },
            ],
          },
        }),
      ),
    ).toMatchObject(ok);
    expect(h.emulator.getUsers().users[0]!.platforms).toEqual([
      { platform: 'web', active: 'true' },
      { platform: 'iOS', active: 'false' },
      { platform: 'ANDROID', active: 'true' },
    ]);
    // A boolean is not the string the upstream documents (facts §2.2, §6.3), at either placement.
    for (const [body, field] of [
      [user({ platforms: [{ platform: 'web', active: true }] }), 'platforms[0].active'],
      [user({ attributes: { platforms: [{ platform: 'iOS', active: false }] } }), 'attributes.platforms[0].active'],
    ] as const) {
      const answer = await call(h, 'users', body);
      // The upstream's error body exactly, as for every other refused attribute.
      expect({ status: answer.status, body: answer.body }).toEqual(fail(400, 'InvalidAttributeError', `${field} must be "true" or "false"`, field));
    }
    expect(await call(h, 'users', user({ platforms: [{ platform: 'IOS', active: 'true' }] }))).toMatchObject(
      fail(400, 'InvalidAttributeError', 'platforms[0].platform must be one of ANDROID, iOS, web', 'platforms[0].platform'),
    );
    expect(await call(h, 'users', user({ attributes: { platforms: [{ platform: 'web', active: 'yes' }] } }))).toMatchObject(
      fail(400, 'InvalidAttributeError', 'attributes.platforms[0].active must be "true" or "false"', 'attributes.platforms[0].active'),
    );
  });

  it('values: string, number, boolean, ISO 8601 date-time, arrays of those', async () => {
    const attributes = { name: 'Ada', points: 20, super_user: true, u_bd: '1990-05-31T03:47:35Z', tags: ['a', 'b', 3] };
    expect(await call(h, 'users', user({ attributes }))).toMatchObject(ok);
    expect(h.emulator.getUsers().users[0]!.attributes).toEqual(attributes);
    expect(await call(h, 'users', user({ attributes: { u_bd: '2024-02-30T10:00:00Z' } }))).toMatchObject(
      fail(400, 'InvalidAttributeError', 'attributes.u_bd must be a valid ISO 8601 date-time', 'attributes.u_bd'),
    );
    expect(await call(h, 'users', user({ attributes: { address: { city: 'Pune' } } }))).toMatchObject(
      fail(400, 'InvalidAttributeError', 'attributes.address must be a string, number, boolean, ISO 8601 date or array', 'attributes.address'),
    );
    expect(await call(h, 'users', user({ attributes: { nothing: null } }))).toMatchObject(
      fail(400, 'InvalidAttributeError', 'attributes.nothing must be a string, number, boolean, ISO 8601 date or array', 'attributes.nothing'),
    );
  });

  it('profiles merge: sent attributes overwrite, the others stay; create-only attributes keep their first value', async () => {
    await call(h, 'users', user({ attributes: { first_name: 'Ada', city: 'Pune', cr_t: 1 } }));
    await call(h, 'users', user({ attributes: { city: 'Delhi', plan: 'pro', cr_t: 2 } }));
    const profile = h.emulator.getUsers().users[0]!;
    expect(profile.attributes).toEqual({ first_name: 'Ada', city: 'Delhi', plan: 'pro', cr_t: 1 });
    expect(profile.update_count).toBe(1);
  });

  it('addValueToArrayField / removeValueFromArrayField; both on one attribute is an ArrayFieldError', async () => {
    await call(h, 'users', user({ attributes: { tags: ['a'] } }));
    expect(await call(h, 'users', user({ attributes: { addValueToArrayField: { tags: ['b', 'a'] } } }))).toMatchObject(ok);
    expect(await call(h, 'users', user({ attributes: { removeValueFromArrayField: { tags: ['a'] } } }))).toMatchObject(ok);
    expect(h.emulator.getUsers().users[0]!.attributes.tags).toEqual(['b']);
    expect(await call(h, 'users', user({ attributes: { addValueToArrayField: { first_name: ['x'] }, removeValueFromArrayField: { first_name: ['y'] } } }))).toMatchObject(
      fail(400, 'ArrayFieldError', "Cannot add and remove 'first_name' at the same time", 'addValueToArrayField'),
    );
  });

  it('update_existing_only: true updates a known user and never creates one', async () => {
    expect(await call(h, 'users', user({ customer_id: 'ghost-1', update_existing_only: true }))).toMatchObject(ok);
    expect(h.emulator.getUsers()).toMatchObject({ count: 0, skipped_updates: 1 });
    await call(h, 'users', user());
    expect(await call(h, 'users', user({ update_existing_only: true, attributes: { plan: 'pro' } }))).toMatchObject(ok);
    expect(h.emulator.getUsers().users[0]!.attributes).toEqual({ first_name: 'Ada', plan: 'pro' });
    expect(await call(h, 'users', user({ update_existing_only: 'yes' }))).toMatchObject(
      fail(400, 'Malformed JSON', 'update_existing_only must be a boolean', 'update_existing_only'),
    );
  });

  it('payload limit: 128 KB accepted, more is 413 PayloadTooLarge', async () => {
    const base = JSON.stringify(user({ attributes: { blob: '' } })).length;
    const fits = user({ attributes: { blob: 'x'.repeat(128 * 1024 - base) } });
    expect(JSON.stringify(fits).length).toBe(128 * 1024);
    expect(await call(h, 'users', fits)).toMatchObject(ok);
    const over = user({ attributes: { blob: 'x'.repeat(128 * 1024 - base + 1) } });
    expect(await call(h, 'users', over)).toMatchObject(fail(413, 'PayloadTooLarge', 'Payload size exceeds 128 KB'));
  });

  it('auth: the data key; 401 bodies of the upstream', async () => {
    expect(await call(h, 'users', user(), { headers: { authorization: basic(KEYS.personalize) } })).toMatchObject(
      fail(401, 'Authentication required', 'App Secret key mismatch. Please login to the dashboard to verify key'),
    );
    expect(await call(h, 'users', user(), { headers: { authorization: undefined } })).toMatchObject(
      fail(401, 'Authentication required', 'Authentication Header Required'),
    );
    // SVC-APPKEY is optional here, but must name the workspace when sent.
    expect(await call(h, 'users', user(), { headers: { 'svc-appkey': WORKSPACE } })).toMatchObject(ok);
    expect(await call(h, 'users', user(), { headers: { 'svc-appkey': 'OTHER' } })).toMatchObject({ status: 401 });
  });

  it('the workspace in the path must be the authenticated one', async () => {
    const res = await fetch(`${h.url}/v1/customer/OTHERWORKSPACE`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic(KEYS.data) },
      body: JSON.stringify(user()),
    });
    expect(res.status).toBe(401);
  });
});

describe('users: rate limit', () => {
  it('refuses updates beyond the per-minute budget with 429 RateLimitError and Retry-After', async () => {
    let t = Date.parse('2026-03-01T00:00:00Z');
    const limited = await start({ now: () => t, limits: { userUpdatesPerMinute: 2 } });
    try {
      expect(await call(limited, 'users', user())).toMatchObject(ok);
      expect(await call(limited, 'users', user())).toMatchObject(ok);
      const refused = await call(limited, 'users', user());
      expect(refused).toMatchObject(fail(429, 'RateLimitError', 'Rate limit exceeded'));
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      t += 61_000;
      expect(await call(limited, 'users', user())).toMatchObject(ok);
    } finally {
      await limited.close();
    }
  });
});

describe('users: fair-use limits of the data tracking policy', () => {
  it('values longer than 512 characters are stored truncated', async () => {
    expect(await call(h, 'users', user({ attributes: { bio: 'y'.repeat(700), tags: ['z'.repeat(513)] } }))).toMatchObject(ok);
    const stored = h.emulator.getUsers().users[0]!.attributes;
    expect([(stored.bio as string).length, (stored.tags as string[])[0]!.length]).toEqual([512, 512]);
  });
});
