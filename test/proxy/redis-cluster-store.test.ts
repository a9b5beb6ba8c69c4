// The store on a real Redis Cluster (3 masters + 3 replicas, redis-server processes): found from one
// node's URL, every store call working across slots at one script per master, one workspace's
// events spread over every master (and over every master of a 6-master cluster), and a cluster
// read through a single-node client refused by readiness, not trusted.
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy } from '../../src/proxy/create-proxy';
import { eventKeyer, PROBE_RANGES, probeKeys } from '../../src/proxy/pipeline/event-keys';
import { withProbes } from '../../src/proxy/probes';
import { keySlot, SLOTS, slotTag } from '../../src/proxy/stores/cluster-slot';
import { connectRedisStore, type RedisStoreConnection } from '../../src/proxy/stores/redis-connect';
import { createRedisStore } from '../../src/proxy/stores/redis-store';
import { storeErrorKind } from '../../src/proxy/stores/store-error';
import type { ProxyLogEntry } from '../../src/proxy/types';
import { until } from '../browsers/engine';
import { bulk, startRedisCluster, type ClusterNode, type RedisCluster } from '../support/redis-cluster';
import { describeStoreContract } from './store-contract';
import { experienceBody, KEYS, startUpstream, WORKSPACE, type Upstream, PAGE_HEADERS } from './support';

const quiet = () => {};
let cluster: RedisCluster;
let upstream: Upstream;
let redis: RedisStoreConnection;

beforeAll(async () => {
  [cluster, upstream] = await Promise.all([startRedisCluster(), startUpstream()]);
  redis = await connectRedisStore(cluster.url, { onError: quiet });
}, 60_000);

afterAll(async () => {
  await redis?.close();
  await Promise.all([cluster?.stop(), upstream?.close()]);
});

describe('Redis Cluster: found from one node', () => {
  it('connectRedisStore with one node’s URL uses a cluster client (INFO cluster says cluster_enabled:1)', () => {
    expect([redis.connected, redis.cluster]).toEqual([true, true]);
    expect(typeof (redis.client as { getMasters?: unknown }).getMasters).toBe('function');
  });

  it('our slot of a key is the cluster’s own (CLUSTER KEYSLOT), for event keys, probe keys, marker tags and plain keys', async () => {
    const keys = [
      ...Array.from({ length: 8 }, () => `engage:${eventKeyer(WORKSPACE)(randomUUID())}`),
      ...probeKeys(WORKSPACE, 'readyz-x').slice(0, 8),
      ...[0, 1, 5_000, 16_383].map((slot) => `engage:{${slotTag(slot)}}:o:owner`),
      'rl:ENGAGEDEMO01:experienceEvents:client:203.0.113.7:60000:1',
      'foo',
      '{}x',
      'a{b}c{d}',
    ];
    const theirs = await Promise.all(keys.map(async (key) => Number(/^:(\d+)/.exec(await cluster.servers[0]!.command('CLUSTER', 'KEYSLOT', key))![1])));
    expect(keys.map(keySlot)).toEqual(theirs);
  });

  it('slotTag(s) is in slot s, for every slot; readiness’s probe keys sit one in each 256th of the slots', () => {
    const wrong = Array.from({ length: SLOTS }, (_, slot) => slot).filter((slot) => keySlot(`{${slotTag(slot)}}`) !== slot);
    expect(wrong).toEqual([]);
    const probes = probeKeys(WORKSPACE, 'readyz-x');
    expect(probes.map((key) => Math.floor((keySlot(key) * PROBE_RANGES) / SLOTS))).toEqual(Array.from({ length: PROBE_RANGES }, (_, i) => i));
  });
});

// A fresh prefix per test; keys without a tag spread over the slots, so calls span the masters.
describeStoreContract(
  'Redis Cluster',
  async () => ({
    store: createRedisStore(redis.client, { prefix: `t:${randomUUID()}:` }),
    advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }),
  { shortTtlMs: 100 },
);

/** Calls of each script command on each of `ports`' nodes since the last CONFIG RESETSTAT. */
async function scriptCalls(servers: RedisCluster['servers']): Promise<number[]> {
  return Promise.all(
    servers.map(async (server) => {
      const stats = bulk(await server.command('INFO', 'commandstats'));
      return [...stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
    }),
  );
}

describe('Redis Cluster: one workspace over every master', () => {
  it('claims of a 20-event request span 20 slots and every master; each key is claimed, pending, accepted after commit', async () => {
    const key = eventKeyer(WORKSPACE);
    const keys = Array.from({ length: 20 }, () => key(randomUUID()));
    expect(new Set(keys.map((k) => keySlot(`engage:${k}`))).size).toBeGreaterThan(15);
    expect(await redis.store.claim(keys, 'A', 60_000, 60_000)).toEqual(keys.map(() => 'claimed'));
    expect(await redis.store.claim(keys, 'B', 60_000, 60_000)).toEqual(keys.map(() => 'pending'));
    await redis.store.commit(keys, 60_000, 'A');
    expect(await redis.store.claim(keys, 'B', 60_000, 60_000)).toEqual(keys.map(() => 'accepted'));
  });

  it('a 20-event claim is one script on each master, and so is its commit (and a release)', async () => {
    const key = eventKeyer(WORKSPACE);
    const masters = (await cluster.masters()).map((master) => master.server);
    // Warm: the scripts cached on every master (a first call is NOSCRIPT, then EVAL).
    for (let i = 0; i < 3; i++) {
      const warm = Array.from({ length: 20 }, () => key(randomUUID()));
      await redis.store.claim(warm, `warm${i}`, 60_000, 60_000);
      await redis.store.commit(warm, 60_000, `warm${i}`);
      await redis.store.release(warm, `warm${i}`);
    }
    // 20 keys touch every one of 3 masters but with a chance of 3 × (2/3)^20 ≈ 0.1 %: drawn until they do.
    let keys: string[];
    const masterOf = (k: string) => (redis.client as unknown as { slots: Array<{ master: object }> }).slots[keySlot(`engage:${k}`)]!.master;
    do keys = Array.from({ length: 20 }, () => key(randomUUID()));
    while (new Set(keys.map(masterOf)).size < 3);
    const step = async (work: () => Promise<unknown>) => {
      await Promise.all(masters.map((master) => master.command('CONFIG', 'RESETSTAT')));
      await work();
      return scriptCalls(masters);
    };
    const claim = await step(() => redis.store.claim(keys, 'C', 60_000, 60_000));
    const commit = await step(() => redis.store.commit(keys, 60_000, 'C'));
    const release = await step(() => redis.store.release(keys, 'D'));
    console.log(`scripts per master: claim of 20 keys ${claim.join(' / ')}, its commit ${commit.join(' / ')}, a release ${release.join(' / ')}`);
    expect(claim).toEqual([1, 1, 1]);
    expect(commit).toEqual([1, 1, 1]);
    expect(release).toEqual([1, 1, 1]);
  });

  it('12 concurrent 20-event claims are merged: one script per master, not 12; two owners claiming the same keys at once, each key claimed by one', async () => {
    const key = eventKeyer(WORKSPACE);
    const masters = (await cluster.masters()).map((master) => master.server);
    const store = createRedisStore(redis.client, { prefix: `merge:${randomUUID().slice(0, 8)}:` });
    const twenty = () => Array.from({ length: 20 }, () => key(randomUUID()));
    // Warm: the claim script cached on every master (a first call is NOSCRIPT, then EVAL).
    await store.claim([...twenty(), ...twenty(), ...twenty()], 'warm', 60_000, 60_000);
    await Promise.all(masters.map((master) => master.command('CONFIG', 'RESETSTAT')));
    // All 12 calls in the same turn: one script per master at its end.
    const alone = await Promise.all(Array.from({ length: 12 }, (_, i) => store.claim(twenty(), `alone${i}`, 60_000, 60_000)));
    const calls = await scriptCalls(masters);
    console.log(`12 concurrent 20-key claims: scripts per master ${calls.join(' / ')}, against 12 each unmerged`);
    expect(calls).toEqual([1, 1, 1]);
    expect(alone).toEqual(alone.map(() => Array.from({ length: 20 }, () => 'claimed')));

    // Owners 2k and 2k + 1 claim the same 20 keys at once, in the same merged scripts.
    const sets = Array.from({ length: 6 }, twenty);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => store.claim(sets[i >> 1]!, `owner${i}`, 60_000, 60_000)));
    for (let pair = 0; pair < 6; pair++) {
      const [a, b] = [answers[2 * pair]!, answers[2 * pair + 1]!];
      for (let k = 0; k < 20; k++) expect([a[k], b[k]].sort()).toEqual(['claimed', 'pending']);
    }
    // Each owner's marker answers for its own keys: both committed, every key accepted for anyone;
    // a pair not committed still pending.
    await Promise.all(
      [0, 1].map((i) =>
        store.commit(
          sets[0]!.filter((_, k) => answers[i]![k] === 'claimed'),
          60_000,
          `owner${i}`,
        ),
      ),
    );
    expect(await store.claim(sets[0]!, 'late', 60_000, 60_000)).toEqual(sets[0]!.map(() => 'accepted'));
    expect(await store.claim(sets[1]!, 'late', 60_000, 60_000)).toEqual(sets[1]!.map(() => 'pending'));
  });

  it('2,000 events of one workspace through the proxy: each of the three masters holds ≥ 20 % of its event keys', async () => {
    const prefix = `spread:${randomUUID().slice(0, 8)}:`;
    await send2000(createRedisStore(redis.client, { prefix }));
    const masters = await cluster.masters();
    expect(masters).toHaveLength(3);
    const counts = await eventKeysOn(masters, prefix);
    console.log(`one workspace's 2,000 event keys over the masters: ${counts.join(' / ')} (${counts.map((n) => `${((100 * n) / 2_000).toFixed(1)} %`).join(' / ')})`);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2_000);
    for (const count of counts) expect(count).toBeGreaterThanOrEqual(400);
  });
});

/** 2,000 events of one workspace through a proxy on `store`, in 100 requests of 20; every answer 200. */
async function send2000(store: ReturnType<typeof createRedisStore>) {
  upstream.emulator.reset();
  // No budgets: one test client sends 2,000 events in a second.
  const proxy = createProxy({ workspaceId: WORKSPACE, keys: KEYS, sdkUrl: upstream.url, store, rateLimits: { experienceEvents: {} } });
  for (let i = 0; i < 10; i++) {
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () =>
        proxy(
          new Request('https://shop.example/v1/experiences/events', {
            method: 'POST',
            headers: PAGE_HEADERS,
            body: JSON.stringify(experienceBody(20)),
          }),
        ).then((r) => r.status),
      ),
    );
    expect(statuses).toEqual(Array.from({ length: 10 }, () => 200));
  }
  expect((await upstream.experienceEvents()).unique).toBe(2_000);
}

/** The event keys under `prefix` on each of `masters`. */
function eventKeysOn(masters: ClusterNode[], prefix: string): Promise<number[]> {
  return Promise.all(masters.map(async (master) => Number(/^:(\d+)/.exec(await master.server.command('EVAL', `return #redis.call('KEYS', '${prefix}ev:*')`, '0'))![1])));
}

describe('Redis Cluster of 6 masters: the same workspace uses every master', () => {
  let six: RedisCluster | undefined;
  let sixRedis: RedisStoreConnection | undefined;
  afterAll(async () => {
    await sixRedis?.close();
    await six?.stop();
  });

  it('2,000 events of one workspace: each of the six masters holds ≥ 10 % of its event keys; readiness probes every master and is ready', async () => {
    six = await startRedisCluster({ masters: 6, replicas: 0 });
    sixRedis = await connectRedisStore(six.url, { onError: quiet });
    const prefix = `spread6:${randomUUID().slice(0, 8)}:`;
    await send2000(createRedisStore(sixRedis.client, { prefix }));
    const masters = await six.masters();
    expect(masters).toHaveLength(6);
    const counts = await eventKeysOn(masters, prefix);
    console.log(`6 masters: one workspace's 2,000 event keys ${counts.join(' / ')} (${counts.map((n) => `${((100 * n) / 2_000).toFixed(1)} %`).join(' / ')})`);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2_000);
    for (const count of counts) expect(count).toBeGreaterThanOrEqual(200);
    // Every master holds probe keys (as node-redis maps the slots), and the claim on all of them succeeds.
    const slots = (sixRedis.client as unknown as { slots: Array<{ master: object }>; masters: object[] }).slots;
    const probed = new Set(probeKeys(WORKSPACE, 'readyz-x').map((key) => slots[keySlot(`engage:${key}`)]!.master));
    expect(probed.size).toBe(6);
    const options = { workspaceId: WORKSPACE, keys: KEYS, sdkUrl: upstream.url, store: sixRedis.store };
    const ready = await withProbes(createProxy(options), { options, store: sixRedis.store })(new Request('http://proxy.test/readyz'));
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', checks: { keys: 'ok', store: 'ok' } }]);
  }, 60_000);

  it('a slot moved to another master (a resharding): the call that meets it fails once as a redirection, node-redis’s table is refreshed, the next call claims there', async () => {
    const store = createRedisStore(sixRedis!.client, { prefix: 'moved:' });
    const client = sixRedis!.client as unknown as { slots: Array<{ master: { port: number } }> };
    const masters = await six!.masters();
    const from = masters[0]!;
    const to = masters[1]!;
    // An empty slot in the middle of `from`'s range, and event keys: one in another slot of `from`
    // (first, so it names the group's marker and routes the script), one in the slot that moves.
    const slotOf = (key: string) => keySlot(`moved:${key}`);
    const fromSlots = Array.from({ length: SLOTS }, (_, slot) => slot).filter((slot) => client.slots[slot]!.master.port === from.port);
    let moving = fromSlots[Math.floor(fromSlots.length / 2)]!;
    while ((await from.server.command('CLUSTER', 'COUNTKEYSINSLOT', String(moving))) !== ':0\r\n') moving++;
    const draw = (ok: (slot: number) => boolean) => {
      for (;;) {
        const key = eventKeyer(WORKSPACE)(randomUUID());
        if (ok(slotOf(key))) return key;
      }
    };
    const stays = () => draw((slot) => slot !== moving && client.slots[slot]!.master.port === from.port);
    const pair = () => [stays(), draw((slot) => slot === moving)];
    expect(await store.claim([stays()], 'before', 60_000, 60_000)).toEqual(['claimed']);
    // Moved by hand, as redis-cli --cluster reshard does for an empty slot: every master told.
    await to.server.command('CLUSTER', 'SETSLOT', String(moving), 'NODE', to.id);
    for (const master of masters) if (master !== to) await master.server.command('CLUSTER', 'SETSLOT', String(moving), 'NODE', to.id);
    // The call that meets the moved slot fails as a redirection, and its MOVED has node-redis
    // refresh its table: nothing else would (no call of ours goes to the new master before). Each
    // call until the table is refreshed fails alike; how many depends on the machine's load (a
    // loaded CI run had 5 in 1 s), so the refresh is awaited, bounded.
    const errors: unknown[] = [];
    await store.claim(pair(), 'meets', 60_000, 60_000).catch((error: unknown) => errors.push(error));
    await until(
      async () => client.slots[moving]!.master.port,
      (port) => port === to.port,
      20_000,
      "node-redis's table naming the new master",
    );
    console.log(`slot ${moving} moved: ${errors.length} call(s) failed (${errors.map((e) => storeErrorKind(e)).join(', ')}) before node-redis's table said where it is`);
    expect(errors.map((e) => storeErrorKind(e))).toEqual(['redirection']);
    expect(await store.claim(pair(), 'after', 60_000, 60_000)).toEqual(['claimed', 'claimed']);
    expect(client.slots[moving]!.master.port).toBe(to.port);
  }, 60_000);
});

describe('Redis Cluster read through a single-node client', () => {
  it('is not ready, naming redirection; its requests count redirection errors (the old failure, now loud)', async () => {
    const single = await createClient({ url: cluster.url, disableOfflineQueue: true }).on('error', quiet).connect();
    try {
      const store = createRedisStore(single);
      const entries: ProxyLogEntry[] = [];
      const options = { workspaceId: WORKSPACE, keys: KEYS, sdkUrl: upstream.url, store, logger: (entry: ProxyLogEntry) => entries.push(entry) };
      const changes: string[] = [];
      const handler = withProbes(createProxy(options), { options, store, onChange: (line) => changes.push(line) });
      // A ping answers: that alone used to say ready.
      expect(await single.ping()).toBe('PONG');
      const ready = await handler(new Request('http://proxy.test/readyz'));
      const body = (await ready.json()) as { checks: { store: string } };
      expect([ready.status, body.checks.store]).toEqual([
        503,
        expect.stringMatching(/^cannot claim \(redirection: MOVED\/ASK\/CROSSSLOT — a Redis Cluster read through a single-node client/),
      ]);
      // Polled again, the same reason: logged once, not per probe.
      expect((await handler(new Request('http://proxy.test/readyz'))).status).toBe(503);
      expect(changes).toEqual([`not ready: store: ${body.checks.store}`]);
      const res = await handler(
        new Request('http://proxy.test/v1/experiences/events', {
          method: 'POST',
          headers: PAGE_HEADERS,
          body: JSON.stringify(experienceBody(20)),
        }),
      );
      expect(res.status).toBe(200);
      expect(entries.at(-1)?.storeErrorKinds?.redirection).toBeGreaterThanOrEqual(1);
    } finally {
      single.destroy();
    }
  });
});

describe('the INFO the tests read', () => {
  it('every master holds slots (cluster created as 3 + 3)', async () => {
    const info = bulk(await cluster.servers[0]!.command('CLUSTER', 'INFO'));
    expect(info).toMatch(/cluster_known_nodes:6/);
    expect(info).toMatch(/cluster_size:3/);
  });
});

describe('a Redis Cluster that requires a password, as managed clusters do', () => {
  it('one node’s URL with user and password reaches every node; a wrong password is refused naming the cause', async () => {
    const secured = await startRedisCluster({ password: 'cluster-s3cret' });
    try {
      const port = secured.servers[0]!.port;
      const right = await connectRedisStore(`redis://default:cluster-s3cret@127.0.0.1:${port}`, { onError: quiet });
      try {
        expect([right.connected, right.cluster]).toEqual([true, true]);
        // 20 keys over the shards: every master, each reached with the URL's credentials.
        const key = eventKeyer(WORKSPACE);
        const keys = Array.from({ length: 20 }, () => key(randomUUID()));
        expect(await right.store.claim(keys, 'A', 60_000, 60_000)).toEqual(keys.map(() => 'claimed'));
        await right.store.commit(keys, 60_000, 'A');
        expect(await right.store.claim(keys, 'B', 60_000, 60_000)).toEqual(keys.map(() => 'accepted'));
      } finally {
        await right.close();
      }
      const errors: Error[] = [];
      const wrong = await connectRedisStore(`redis://default:wrong-s3cret@127.0.0.1:${port}`, { onError: (e) => errors.push(e) }).then(
        () => undefined,
        (error: Error) => error,
      );
      expect(wrong?.message).toMatch(new RegExp(`^Redis at redis://default:\\*\\*\\*@127\\.0\\.0\\.1:${port} refused the credentials: WRONGPASS`));
      for (const error of [...errors, wrong!]) expect(`${error.message} ${error.stack}`).not.toMatch(/s3cret/);
    } finally {
      await secured.stop();
    }
  }, 60_000);
});
