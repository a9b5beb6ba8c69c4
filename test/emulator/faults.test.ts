// Fault injection through the admin API: ratio with a status mix, Retry-After, connection
// resets, next-N and time windows, per-operation, reproducible with a seed.
import { describe, expect, it } from 'vitest';
import { admin, anyId, call, route, start, useEmulator, xpBody } from './helpers.ts';

let t = Date.now();
const h = useEmulator({ now: () => t, limits: false });

async function outcome(op: 'experienceEvents' | 'users' = 'experienceEvents'): Promise<number | 'reset'> {
  try {
    const res = await call(h, op, op === 'users' ? { type: 'customer', customer_id: 'u-42' } : xpBody());
    return res.status;
  } catch {
    return 'reset';
  }
}

describe('faults', () => {
  it('POST /_emulator/faults answers with the active spec; DELETE clears it', async () => {
    const set = await admin(h, 'faults', { body: { statuses: [503], retryAfterSeconds: 7, count: 2 } });
    expect(set).toMatchObject({
      status: 200,
      body: { faults: { ratio: 1, statuses: [503], retryAfterSeconds: 7, latencyMs: 0, remaining: 2, until: null, seed: 1, seen: 0, failed: 0 } },
    });
    expect(set.body.faults.operations).toEqual(['experienceEvents', 'users', 'events', 'campaignUpdate', 'fileImportStatus']);
    expect((await admin(h, 'faults', { method: 'DELETE' })).body).toEqual({ faults: null });
    expect(await outcome()).toBe(200);
  });

  it('503 with Retry-After in the operation body shape; nothing is stored', async () => {
    await admin(h, 'faults', { body: { statuses: [503], retryAfterSeconds: 7 } });
    const res = await call(h, 'experienceEvents', xpBody());
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.body).toEqual({ title: 'Service Unavailable', description: expect.any(String), code: anyId });
    const users = await call(h, 'users', { type: 'customer', customer_id: 'u-42' });
    expect(users.body).toEqual({ status: 'fail', error: { message: expect.any(String), type: 'ServiceUnavailable', request_id: anyId } });
    expect(h.emulator.getExperienceEvents().unique).toBe(0);
    expect(h.emulator.getUsers().count).toBe(0);
  });

  it('429 carries Retry-After; 500 does not', async () => {
    await admin(h, 'faults', { body: { statuses: [429], retryAfterSeconds: 3, count: 1 } });
    const limited = await call(h, 'events', { type: 'event', customer_id: 'u-42', actions: [{ action: 'A' }] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(limited.body.error.type).toBe('Rate Limits Exceeded');
    await admin(h, 'faults', { body: { statuses: [500], retryAfterSeconds: 3, count: 1 } });
    const failed = await call(h, 'campaignUpdate', { request_id: 'r', updated_by: 'a@b.co' });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('retry-after')).toBeNull();
    expect(failed.body.error.code).toBe('500 Internal Server Error');
  });

  it('count: only the next N upstream requests fail', async () => {
    await admin(h, 'faults', { body: { statuses: [500], count: 2 } });
    expect([await outcome(), await outcome(), await outcome()]).toEqual([500, 500, 200]);
    expect((await admin(h, 'faults')).body).toEqual({ faults: null });
  });

  it('durationMs: a time window', async () => {
    await admin(h, 'faults', { body: { statuses: [502], durationMs: 5000 } });
    expect(await outcome()).toBe(502);
    t += 4999;
    expect(await outcome()).toBe(502);
    t += 1;
    expect(await outcome()).toBe(200);
  });

  it('reset drops the connection before storing; reset-after stores, then drops it', async () => {
    await admin(h, 'faults', { body: { statuses: ['reset'], count: 1 } });
    expect(await outcome()).toBe('reset');
    expect(h.emulator.getExperienceEvents().unique).toBe(0);
    await admin(h, 'faults', { body: { statuses: ['reset-after'], count: 1 } });
    const body = xpBody();
    await expect(call(h, 'experienceEvents', body)).rejects.toThrow();
    expect(h.emulator.getExperienceEvents().unique).toBe(1);
    // The client retries with the same UUID: deduplicated.
    expect((await call(h, 'experienceEvents', body)).status).toBe(200);
    expect(h.emulator.getExperienceEvents()).toMatchObject({ unique: 1, duplicates: 1 });
    expect(h.emulator.getRequests().requests.map((r) => r.status)).toEqual(['reset', 'reset', 200]);
  });

  it('ratio with a status mix is reproducible with a seed', async () => {
    const run = async () => {
      await admin(h, 'faults', { body: { ratio: 0.5, statuses: [500, 503, 429], seed: 42 } });
      const seen = [];
      for (let i = 0; i < 24; i++) seen.push(await outcome());
      return seen;
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(3);
    expect(first.filter((s) => s !== 200).length).toBeGreaterThan(3);
    expect(new Set(first.filter((s) => s !== 200)).size).toBeGreaterThan(1);
    const other = [];
    await admin(h, 'faults', { body: { ratio: 0.5, statuses: [500, 503, 429], seed: 7 } });
    for (let i = 0; i < 24; i++) other.push(await outcome());
    expect(other).not.toEqual(first);
  });

  it('operations: only the named operations fail; admin routes never do', async () => {
    await admin(h, 'faults', { body: { statuses: [500], operations: ['users'] } });
    expect(await outcome('experienceEvents')).toBe(200);
    expect(await outcome('users')).toBe(500);
    expect((await admin(h, 'experience-events')).status).toBe(200);
  });

  it('latencyMs alone delays without failing', async () => {
    const set = await admin(h, 'faults', { body: { latencyMs: 20 } });
    expect(set.body.faults).toMatchObject({ ratio: 0, latencyMs: 20 });
    expect(await outcome()).toBe(200);
    expect(h.emulator.getFaults()).toMatchObject({ seen: 1, failed: 0 });
  });

  it('bad specs are refused naming the field', async () => {
    for (const [body, error] of [
      [{ ratio: 2 }, 'ratio must be a number from 0 to 1'],
      [{ statuses: [200] }, 'statuses[0] must be an HTTP status from 400 to 599, "reset" or "reset-after"'],
      [{ statuses: [] }, 'statuses must be a non-empty array'],
      [{ operations: ['nope'] }, 'operations[0] must be one of experienceEvents, users, events, campaignUpdate, fileImportStatus'],
      [{ count: 0 }, 'count must be an integer from 1 up'],
      [{ colour: 'red' }, 'colour is not a fault option'],
    ] as const) {
      expect(await admin(h, 'faults', { body })).toMatchObject({ status: 400, body: { error } });
    }
  });
});

describe('faults from options (what the CLI flags set)', () => {
  it('starts with the given spec active', async () => {
    const faulty = await start({ faults: { ratio: 1, statuses: [503], retryAfterSeconds: 2 } });
    try {
      const r = route('experienceEvents');
      const res = await fetch(faulty.url + r.path, { method: 'POST', headers: r.headers, body: JSON.stringify(xpBody()) });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
    } finally {
      await faulty.close();
    }
  });
});
