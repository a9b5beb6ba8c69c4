// Each event forwarded by one request at a time: concurrent requests carrying the same UUIDs, on
// one instance or several sharing a store, against the real emulator. The overlap is made real
// with upstream latency and failures, so the second request arrives while the first is in flight.
import { afterEach, describe, expect, it } from 'vitest';
import { createProxy } from '../../src/proxy/create-proxy';
import { Claims } from '../../src/proxy/pipeline/claims';
import { createMemoryStore } from '../../src/proxy/stores/memory-store';
import type { ClaimState, ProxyLogEntry, ProxyStore } from '../../src/proxy/types';
import { experienceBody, harness, KEYS, WORKSPACE, type Harness, PAGE_HEADERS } from './support';

let h: Harness;
afterEach(async () => {
  await h?.close();
  h = undefined as unknown as Harness;
});

const XP = '/v1/experiences/events';
const uuidsOf = (body: string): string[] =>
  JSON.parse(body).elements.flatMap((element: { actions: Array<{ svc_event_uuid: string }> }) => element.actions.map((a) => a.svc_event_uuid));

describe('claims', () => {
  it('forwards a batch once when it arrives twice at the same time; both callers get the success', async () => {
    h = await harness();
    await h.upstream.fault({ latencyMs: 300, count: 1 });
    const body = experienceBody(3);
    const [first, second] = await Promise.all([h.call(XP, { json: body }), h.call(XP, { json: body })]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('x-engage-deduplicated')).toBe('3');
    expect(await h.upstream.received()).toHaveLength(1);
    expect(await h.upstream.experienceEvents()).toMatchObject({ unique: 3, duplicates: 0 });
  });

  it('lets a waiting request forward the events itself when the first forward fails for good', async () => {
    const entries: ProxyLogEntry[] = [];
    h = await harness({ retries: 2, logger: (entry) => entries.push(entry) });
    // The first request's three attempts all fail (slowly enough that the second one waits).
    await h.upstream.fault({ statuses: [503], latencyMs: 100, count: 3 });
    const body = experienceBody(4);
    const first = h.call(XP, { json: body });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = h.call(XP, { json: body });
    expect((await first).status).toBe(503);
    expect((await second).status).toBe(200);
    expect((await h.upstream.received()).map((r) => r.status)).toEqual([503, 503, 503, 200]);
    expect(await h.upstream.experienceEvents()).toMatchObject({ unique: 4, duplicates: 0 });
    expect(entries.map((e) => e.forwarded)).toEqual([0, 4]);
  });

  it('answers 503 with Retry-After, never 2xx, for events still in another forward past claimWaitMs', async () => {
    h = await harness({ claimWaitMs: 100 });
    await h.upstream.fault({ latencyMs: 800, count: 1 });
    const body = experienceBody(2);
    const first = h.call(XP, { json: body });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = await h.call(XP, { json: body });
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(await second.json()).toMatchObject({ title: expect.any(String) });
    expect((await first).status).toBe(200);
    // The tracker's re-send after Retry-After is then answered from memory.
    const again = await h.call(XP, { json: body });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-engage-deduplicated')).toBe('2');
    expect(await h.upstream.experienceEvents()).toMatchObject({ unique: 2, duplicates: 0 });
  });

  it('forwards its own new events at once and leaves out those another request got accepted', async () => {
    h = await harness();
    await h.upstream.fault({ latencyMs: 300, count: 1 });
    const old = experienceBody(2);
    const fresh = experienceBody(1).elements[0]!.actions[0]!;
    const mixed = { elements: [{ ...old.elements[0]!, actions: [...old.elements[0]!.actions, fresh] }] };
    const first = h.call(XP, { json: old });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = await h.call(XP, { json: mixed });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-engage-deduplicated')).toBe('2');
    expect((await first).status).toBe(200);
    expect(h.sent.map((sent) => uuidsOf(sent.body))).toEqual([old.elements[0]!.actions.map((a) => a.svc_event_uuid), [fresh.svc_event_uuid]]);
    expect(await h.upstream.experienceEvents()).toMatchObject({ unique: 3, duplicates: 0 });
  });

  it('claims taken after a commit get a new owner: a store that accepts a whole claim at its commit (Redis) never accepts events not yet forwarded', async () => {
    const calls: Array<[string, string, readonly string[]]> = [];
    const store: ProxyStore = {
      ...createMemoryStore(),
      // u1 is free at once; u2 is held by another request until the second look.
      claim: async (keys, owner) => {
        calls.push(['claim', owner, keys]);
        return keys.map((key): ClaimState => (key === 'u2' && calls.length === 1 ? 'pending' : 'claimed'));
      },
      commit: async (keys, _ttlMs, owner) => void calls.push(['commit', owner, keys]),
    };
    const claims = new Claims(
      store,
      (uuid) => uuid,
      ['u1', 'u2'],
      { claimMs: 1_000, acceptedMs: 60_000 },
      () => {},
    );
    await claims.take();
    await claims.commit();
    await claims.take();
    await claims.commit();
    expect(calls.map(([call, , keys]) => [call, keys])).toEqual([
      ['claim', ['u1', 'u2']],
      ['commit', ['u1']],
      ['claim', ['u2']],
      ['commit', ['u2']],
    ]);
    const [first, second] = [calls[0]![1], calls[2]![1]];
    expect([calls[1]![1], calls[3]![1]]).toEqual([first, second]);
    expect(second).not.toBe(first);
    expect(first).toMatch(/^[0-9a-f]{20}$/);
  });

  it('holds across proxy instances that share one store', async () => {
    const store = createMemoryStore();
    h = await harness({ store });
    const other = createProxy({ workspaceId: WORKSPACE, keys: KEYS, sdkUrl: h.upstream.url, store, retryBaseDelayMs: 1 });
    await h.upstream.fault({ statuses: [500], latencyMs: 150, count: 1 });
    const bodies = Array.from({ length: 10 }, () => experienceBody(5));
    // Every batch reaches both instances at once; the first forward of each meets one 500.
    const responses = await Promise.all(
      bodies.flatMap((body) => [
        h.call(XP, { json: body }),
        other(new Request(`https://shop.example${XP}`, { method: 'POST', headers: PAGE_HEADERS, body: JSON.stringify(body) })),
      ]),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await h.upstream.experienceEvents()).toMatchObject({ unique: 50, duplicates: 0 });
  });

  it('with waitUntil, answers before marking the events accepted; a re-send meanwhile still waits, never forwards', async () => {
    const memory = createMemoryStore();
    let landed = false;
    // A store whose accepted marks take 300 ms to land (a slow store round trip).
    const store = {
      ...memory,
      commit: (keys: readonly string[], ttlMs: number, owner: string) =>
        new Promise<void>((resolve) => setTimeout(resolve, 300)).then(() => memory.commit(keys, ttlMs, owner)).then(() => void (landed = true)),
    };
    h = await harness({ store });
    const later: Promise<unknown>[] = [];
    const body = experienceBody(2);
    const call = () =>
      h.proxy(new Request(`https://shop.example/engage${XP}`, { method: 'POST', headers: PAGE_HEADERS, body: JSON.stringify(body) }), {
        clientAddress: '203.0.113.7',
        waitUntil: (work) => later.push(work),
      });
    expect((await call()).status).toBe(200);
    expect(landed).toBe(false);
    const again = await call();
    expect(again.status).toBe(200);
    expect(again.headers.get('x-engage-deduplicated')).toBe('2');
    await Promise.all(later);
    expect(landed).toBe(true);
    expect(await h.upstream.received()).toHaveLength(1);
  });

  it('charges the workspace budget only for what it forwarded', async () => {
    const store = createMemoryStore();
    h = await harness({ store, rateLimits: { experienceEvents: { workspace: [{ limit: 5, windowMs: 60_000 }] } } });
    const body = experienceBody(5);
    expect((await h.call(XP, { json: body })).status).toBe(200);
    // The re-send is answered from memory: it spends nothing, so the budget still has room for nothing more.
    expect((await h.call(XP, { json: body })).status).toBe(200);
    expect((await h.call(XP, { json: experienceBody(1) })).status).toBe(429);
  });

  it('forwards everything, once per request, when the store fails, and says so in the log', async () => {
    const entries: ProxyLogEntry[] = [];
    const down = () => Promise.reject(new Error('store down'));
    h = await harness({ store: { increment: down, claim: down, commit: down, release: down }, logger: (entry) => entries.push(entry) });
    const body = experienceBody(2);
    const [a, b] = await Promise.all([h.call(XP, { json: body }), h.call(XP, { json: body })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    // No event lost; the upstream deduplicates what the store could not.
    expect(await h.upstream.experienceEvents()).toMatchObject({ unique: 2, duplicates: 2 });
    expect(entries.every((entry) => entry.level === 'warn' && entry.storeErrors! >= 2)).toBe(true);
  });
});
