// The Worker's side of the Durable Object store, over a namespace that records what each object
// receives (the objects themselves run in workerd: test/runtimes/cloudflare.test.ts).
import { describe, expect, it } from 'vitest';
import { createDurableObjectStore, type EngageStoreNamespace } from '../../src/proxy/cloudflare';
import type { StoreCall } from '../../src/proxy/stores/engage-store-object';
import { createProxy } from '../../src/proxy/create-proxy';
import { withProbes } from '../../src/proxy/probes';

function namespace(answer: (object: string, call: StoreCall) => unknown) {
  const calls: Array<{ object: string; call: StoreCall }> = [];
  const binding: EngageStoreNamespace = {
    idFromName: (name) => ({ name }),
    get: (id: { name: string }) => ({
      fetch: async (_url, init) => {
        const call = JSON.parse(init.body) as StoreCall;
        calls.push({ object: id.name, call });
        const value = await answer(id.name, call);
        return { ok: true, status: 200, json: async () => value };
      },
    }),
  };
  return { binding, calls };
}

const claimAll = (_object: string, call: StoreCall) => (call.op === 'claim' ? call.keys.map(() => 'claimed') : null);

describe('createDurableObjectStore', () => {
  it('sends each object its own keys, one call per object, and answers in the order of the keys', async () => {
    const { binding, calls } = namespace((_object, call) => (call.op === 'claim' ? call.keys.map((key) => (key.endsWith('7') ? 'accepted' : 'claimed')) : null));
    const store = createDurableObjectStore(binding, { shards: 4 });
    const keys = Array.from({ length: 20 }, (_, i) => `ev:{W}:uuid-${i}`);
    const states = await store.claim(keys, 'owner', 1000, 1000);
    expect(states).toEqual(keys.map((key) => (key.endsWith('7') ? 'accepted' : 'claimed')));
    const objects = calls.map((c) => c.object);
    expect(new Set(objects).size, 'one call per object').toBe(objects.length);
    expect(objects.every((name) => /^engage:[0-3]$/.test(name))).toBe(true);
    expect(calls.flatMap((c) => (c.call.op === 'claim' ? c.call.keys : [])).sort()).toEqual([...keys].sort());

    // The same key always finds the same object.
    calls.length = 0;
    await store.commit(keys, 1000, 'owner');
    const placed = (list: typeof calls) => Object.fromEntries(list.flatMap((c) => ('keys' in c.call ? c.call.keys.map((key) => [key, c.object]) : [])));
    const committed = placed(calls);
    calls.length = 0;
    await store.claim(keys, 'owner', 1000, 1000);
    expect(placed(calls)).toEqual(committed);
  });

  it('with one shard, every call is one subrequest', async () => {
    const { binding, calls } = namespace(claimAll);
    const store = createDurableObjectStore(binding, { shards: 1, name: 'site' });
    await store.claim(['a', 'b', 'c'], 'o', 1000, 1000);
    await store.increment('rl:W:experienceEvents:client:1.2.3.4', 3, 60_000);
    expect(calls.map((c) => [c.object, c.call.op])).toEqual([
      ['site:0', 'claim'],
      ['site:0', 'increment'],
    ]);
  });

  it('an object that answers late: the call rejects after timeoutMs naming it, and the claims it may still take are released behind it', async () => {
    const { binding, calls } = namespace((_object, call) => (call.op === 'claim' ? new Promise(() => {}) : null));
    const store = createDurableObjectStore(binding, { timeoutMs: 50 });
    await expect(store.claim(['ev:{W}:x'], 'owner', 1000, 1000)).rejects.toThrow('Durable Object store: claim timed out after 50 ms');
    await expect.poll(() => calls.map((c) => c.call.op)).toEqual(['claim', 'release']);
    expect(calls[1]!.call).toMatchObject({ op: 'release', keys: ['ev:{W}:x'], owner: 'owner' });
  });

  it("an object that fails: the call rejects with the object's status", async () => {
    const binding: EngageStoreNamespace = {
      idFromName: (name) => name,
      get: () => ({ fetch: async () => ({ ok: false, status: 500, json: async () => null }) }),
    };
    await expect(createDurableObjectStore(binding).increment('k', 1, 1000)).rejects.toThrow('Durable Object store: increment failed: answered 500');
  });

  it('refuses options it cannot use, naming them', () => {
    const { binding } = namespace(claimAll);
    expect(() => createDurableObjectStore(binding, { shards: 0 })).toThrow('createDurableObjectStore: shards must be a positive integer (got 0)');
    expect(() => createDurableObjectStore(binding, { timeoutMs: -1 })).toThrow('createDurableObjectStore: timeoutMs must be a positive number of milliseconds (got -1)');
    expect(() => createDurableObjectStore({} as EngageStoreNamespace)).toThrow('namespace must be a Durable Object namespace binding');
  });
});

describe('an object that says why it cannot serve (EngageStore bound without SQLite)', () => {
  it('/readyz is 503 with the object’s own reason; a claim rejects carrying it as the hint', async () => {
    const hint = 'EngageStore needs SQLite storage: declare the class with new_sqlite_classes in its wrangler migration';
    const binding: EngageStoreNamespace = {
      idFromName: (name) => ({ name }),
      get: () => ({ fetch: async () => ({ ok: false, status: 500, json: async () => ({ error: `${hint} (SQL is not enabled)`, hint }) }) }),
    };
    const store = createDurableObjectStore(binding);
    await expect(store.claim(['ev:{W}:x'], 'owner', 1000, 1000)).rejects.toMatchObject({ cause: { hint } });
    const options = { workspaceId: 'W', keys: { personalize: 'k' }, sdkUrl: 'http://127.0.0.1:1' };
    const res = await withProbes(createProxy({ ...options, store }), { options, store })(new Request('http://proxy.test/readyz'));
    expect([res.status, await res.json()]).toEqual([503, { status: 'not ready', checks: { keys: 'ok', store: `unreachable: ${hint}` } }]);
  });
});
