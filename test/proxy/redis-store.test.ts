// The Redis store against a real redis-server on 127.0.0.1 (test/support/redis-server.ts): the
// store contract, the layout in Redis, round trips, two instances sharing one Redis, and Redis
// stopped, stalled and restarted under a live client.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisStore, createRedisStore, redactRedisUrl, type RedisStoreConnection } from '../../src/proxy/redis';
import type { ProxyStore } from '../../src/proxy/types';
import { startRedisServer, type RedisServer } from '../support/redis-server';
import { startRoundTripCounter } from '../support/round-trip-counter';
import { describeStoreContract } from './store-contract';

const LONG = 60_000;
const quiet = () => {};

async function eventually(check: () => Promise<boolean>, what: string, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error(`not within ${deadlineMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const uuidKey = () => `ev:ENGAGEDEMO01:${randomUUID()}`;

let server: RedisServer;
let redis: RedisStoreConnection;

beforeAll(async () => {
  server = await startRedisServer();
  redis = await connectRedisStore(server.url, { onError: quiet });
  expect(redis.connected).toBe(true);
});

afterAll(async () => {
  await redis?.close();
  await server?.stop();
});

// A fresh prefix per test: the keys of one test never meet another's.
describeStoreContract(
  'Redis',
  async () => ({
    store: createRedisStore(redis.client, { prefix: `t:${randomUUID()}:` }),
    advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }),
  { shortTtlMs: 100 },
);

describe('Redis store: what Redis holds', () => {
  it('one string per event naming its claim, living claim + window; one marker per claim: c for its TTL, a once accepted, for the window', async () => {
    const store = createRedisStore(redis.client);
    const keys = [uuidKey(), uuidKey()];
    await store.claim(keys, 'owner-1', 30_000, 86_400_000);
    for (const k of keys) {
      expect(await redis.client.get(`engage:${k}`)).toBe('c:owner-1');
      const keyTtl = await redis.client.pTTL(`engage:${k}`);
      expect(keyTtl).toBeGreaterThan(86_400_000);
      expect(keyTtl).toBeLessThanOrEqual(86_430_000);
    }
    expect(await redis.client.get('engage:o:owner-1')).toBe('c');
    const claimTtl = await redis.client.pTTL('engage:o:owner-1');
    expect(claimTtl).toBeGreaterThan(0);
    expect(claimTtl).toBeLessThanOrEqual(30_000);
    await store.commit(keys, 86_400_000, 'owner-1');
    expect(await redis.client.get('engage:o:owner-1')).toBe('a');
    expect(await redis.client.pTTL('engage:o:owner-1')).toBeGreaterThan(30_000);
    // The commit wrote one key, not one per event.
    for (const k of keys) expect(await redis.client.get(`engage:${k}`)).toBe('c:owner-1');
    await store.release(keys, 'owner-1');
    expect(await redis.client.get('engage:o:owner-1'), 'a release never undoes a commit').toBe('a');
  });

  it('takes over a key whose owner gave its claim up, in a second round trip; a key still marked a by an older proxy stays accepted', async () => {
    const store = createRedisStore(redis.client);
    const [given, old] = [uuidKey(), uuidKey()];
    await store.claim([given], 'owner-3', 30_000, LONG);
    await store.release([given], 'owner-3');
    expect(await redis.client.exists('engage:o:owner-3')).toBe(0);
    await redis.client.set(`engage:${old}`, 'a', { PX: LONG });
    expect(await store.claim([given, old], 'owner-4', 30_000, LONG)).toEqual(['claimed', 'accepted']);
    expect(await redis.client.get(`engage:${given}`)).toBe('c:owner-4');
  });

  it('bytes per event: MEMORY USAGE of one key, and used_memory over 10,000 accepted events (printed)', async () => {
    const store = createRedisStore(redis.client);
    const accepted = uuidKey();
    const claimed = uuidKey();
    await store.claim([accepted], 'a1b2c3d4e5f6a7b8c9d0', 30_000, 86_400_000);
    await store.commit([accepted], 86_400_000, 'a1b2c3d4e5f6a7b8c9d0');
    await store.claim([claimed], randomUUID(), 30_000, 86_400_000);
    const acceptedBytes = Number(await redis.client.memoryUsage(`engage:${accepted}`));
    const claimedBytes = Number(await redis.client.memoryUsage(`engage:${claimed}`));
    const counter = `rl:experienceEvents:ws:ENGAGEDEMO01:60000:${Math.floor(Date.now() / 60_000)}`;
    await store.increment(counter, 20, 60_000);
    const counterBytes = Number(await redis.client.memoryUsage(`engage:${counter}`));

    // MEMORY USAGE leaves out the entry in Redis's expiry table: used_memory counts everything.
    const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await redis.client.info('memory'))![1]);
    const before = await usedMemory();
    // As the proxy sends them: 20 events per request, each request its own owner (20 hex characters).
    for (let i = 0; i < 500; i++) {
      const keys = Array.from({ length: 20 }, uuidKey);
      const owner = randomUUID().replace(/-/g, '').slice(0, 20);
      await store.claim(keys, owner, 30_000, 86_400_000);
      await store.commit(keys, 86_400_000, owner);
    }
    const perEvent = ((await usedMemory()) - before) / 10_000;
    console.log(
      `Redis memory per event: accepted key ${acceptedBytes} B by MEMORY USAGE (key ${`engage:${accepted}`.length} chars), ` +
        `${perEvent.toFixed(1)} B by used_memory over 10,000; claimed ${claimedBytes} B; rate-limit counter ${counterBytes} B`,
    );
    // 120 B when an accepted key held 'a'; naming its owner's claim (c: + 20 characters) adds 16.
    expect(acceptedBytes).toBeLessThanOrEqual(144);
    expect(perEvent).toBeLessThanOrEqual(256);
  });

  it('keeps keys under the prefix, so two prefixes never see each other', async () => {
    const k = uuidKey();
    const one = createRedisStore(redis.client, { prefix: 'one:' });
    await one.claim([k], 'A', LONG, LONG);
    await one.commit([k], LONG, 'A');
    expect(await createRedisStore(redis.client, { prefix: 'two:' }).claim([k], 'B', LONG, LONG)).toEqual(['claimed']);
    expect([await redis.client.get(`one:${k}`), await redis.client.get('one:o:A')]).toEqual(['c:A', 'a']);
  });

  it('runs its scripts again after Redis forgot them (SCRIPT FLUSH: NOSCRIPT, then EVAL)', async () => {
    const store = createRedisStore(redis.client, { prefix: `t:${randomUUID()}:` });
    const k = uuidKey();
    await store.claim([k], 'A', LONG, LONG);
    await redis.client.scriptFlush();
    await store.release([k], 'A');
    expect(await store.claim([k], 'B', LONG, LONG)).toEqual(['claimed']);
    await redis.client.scriptFlush();
    expect(await store.increment(`rl:${randomUUID()}`, 3, LONG)).toBe(3);
  });

  it('refuses bad input naming the field and the rule', async () => {
    const store = createRedisStore(redis.client);
    await expect(store.increment('rl:x', 1.5, LONG)).rejects.toThrow('increment amount must be an integer (got 1.5)');
    expect(() => createRedisStore(redis.client, { timeoutMs: 0 })).toThrow('timeoutMs must be a positive number');
  });
});

describe('Redis store: round trips', () => {
  it('what a request issues in one tick goes in one round trip (2 counters + 20 claims); commit of 20 in one more', async () => {
    const counter = await startRoundTripCounter(server.port);
    const relayed = await connectRedisStore(`redis://127.0.0.1:${counter.port}`, { onError: quiet });
    try {
      const store = createRedisStore(relayed.client, { prefix: `t:${randomUUID()}:` });
      const keys = Array.from({ length: 20 }, uuidKey);
      // Warm up: the first script call after connecting may meet NOSCRIPT and EVAL again.
      await store.increment('rl:warm', 1, LONG);
      await store.claim(['warm'], 'A', LONG, LONG);
      await store.release(['warm'], 'A');
      await store.claim(['warm'], 'B', LONG, LONG);
      await store.commit(['warm'], LONG, 'B');
      counter.reset();
      const [, , states] = await Promise.all([
        store.increment('rl:client:1.2.3.4', 20, LONG),
        store.increment('rl:ws:ENGAGEDEMO01', 20, LONG),
        store.claim(keys, 'owner-1', 30_000, LONG),
      ]);
      expect(states).toEqual(Array(20).fill('claimed'));
      const claimTurns = counter.turns();
      const claimBytes = counter.bytesIn();
      await store.commit(keys, LONG, 'owner-1');
      const commitTurns = counter.turns() - claimTurns;
      console.log(`Round trips: 2 increments + claim of 20 = ${claimTurns} (${claimBytes} bytes sent), commit of 20 = ${commitTurns}`);
      expect(claimTurns).toBe(1);
      expect(commitTurns).toBe(1);

      // The same calls awaited one after another cost one round trip each: a caller that wants one
      // round trip per request issues them together.
      counter.reset();
      await store.increment('rl:client:1.2.3.4', 20, LONG);
      await store.increment('rl:ws:ENGAGEDEMO01', 20, LONG);
      await store.claim(Array.from({ length: 20 }, uuidKey), 'owner-2', 30_000, LONG);
      expect(counter.turns()).toBe(3);
    } finally {
      await relayed.close();
      await counter.close();
    }
  });
});

describe('Redis store: two proxy instances sharing one Redis', () => {
  let second: RedisStoreConnection;
  beforeAll(async () => {
    second = await connectRedisStore(server.url, { onError: quiet });
  });
  afterAll(async () => {
    await second?.close();
  });

  it('a budget of 100 admits 100 in total across both, not 200', async () => {
    const prefix = `t:${randomUUID()}:`;
    const stores = [createRedisStore(redis.client, { prefix }), createRedisStore(second.client, { prefix })];
    const key = 'rl:experienceEvents:ws:ENGAGEDEMO01:60000:1';
    // 150 one-event requests on each instance, all at once; a request is admitted when the
    // counter it got back is within the budget.
    const values = await Promise.all(stores.flatMap((store) => Array.from({ length: 150 }, () => store.increment(key, 1, LONG))));
    expect(values.filter((v) => v <= 100)).toHaveLength(100);
    expect(new Set(values).size).toBe(300);
  });

  it('claims taken on one instance are pending on the other, then accepted after a commit, claimable after a release', async () => {
    const prefix = `t:${randomUUID()}:`;
    const [one, two] = [createRedisStore(redis.client, { prefix }), createRedisStore(second.client, { prefix })];
    const keys = [uuidKey(), uuidKey()];
    expect(await one.claim(keys.slice(0, 1), 'instance-1-request-1', 30_000, LONG)).toEqual(['claimed']);
    expect(await one.claim(keys.slice(1), 'instance-1-request-2', 30_000, LONG)).toEqual(['claimed']);
    expect(await two.claim(keys, 'instance-2-request', 30_000, LONG)).toEqual(['pending', 'pending']);
    await one.commit(keys.slice(0, 1), LONG, 'instance-1-request-1');
    await one.release(keys.slice(1), 'instance-1-request-2');
    expect(await two.claim(keys, 'instance-2-request', 30_000, LONG)).toEqual(['accepted', 'claimed']);
  });

  it('of 2 × 100 concurrent requests claiming the same 20 events, exactly one holds each event', async () => {
    const prefix = `t:${randomUUID()}:`;
    const stores = [createRedisStore(redis.client, { prefix }), createRedisStore(second.client, { prefix })];
    const keys = Array.from({ length: 20 }, uuidKey);
    const results = await Promise.all(stores.flatMap((store, i) => Array.from({ length: 100 }, (_, j) => store.claim(keys, `i${i}-r${j}`, 30_000, LONG))));
    for (let k = 0; k < keys.length; k++) {
      expect(results.filter((states) => states[k] === 'claimed')).toHaveLength(1);
    }
  });
});

describe('Redis store: Redis stopped, stalled, restarted', () => {
  let own: RedisServer;
  beforeAll(async () => {
    own = await startRedisServer();
  });
  afterAll(async () => {
    await own?.stop();
  });

  async function allReject(store: ProxyStore, pattern: RegExp): Promise<void> {
    const k = uuidKey();
    const calls: Array<[string, Promise<unknown>]> = [
      ['increment', store.increment('rl:x', 1, LONG)],
      ['claim', store.claim([k], 'A', LONG, LONG)],
      ['commit', store.commit([k], LONG, 'A')],
      ['release', store.release([k], 'A')],
      ['ping', store.ping!()],
    ];
    // Settled together: a commit waits for its batch, and the others must not reject unobserved meanwhile.
    const outcomes = await Promise.all(
      calls.map(([name, call]) =>
        call.then(
          () => [name, 'resolved'] as const,
          (error: Error) => [name, error.message] as const,
        ),
      ),
    );
    for (const [name, outcome] of outcomes) expect(outcome, name).toMatch(pattern);
  }

  it('killed (SIGKILL): every call rejects at once; restarted: the same client serves again by itself', async () => {
    const errors: Error[] = [];
    const connection = await connectRedisStore(own.url, { onError: (e) => errors.push(e) });
    try {
      const { store } = connection;
      const k = uuidKey();
      expect(await store.claim([k], 'A', LONG, LONG)).toEqual(['claimed']);
      await own.kill();
      // disableOfflineQueue: the client refuses while disconnected, so no call waits for the timeout.
      await eventually(async () => !connection.client.isReady, 'client noticed the stop');
      await allReject(store, /Redis store: \w+ failed/);
      expect(errors.length).toBeGreaterThan(0);

      await own.start();
      await eventually(async () => (await store.ping!(), true), 'client reconnected');
      // An empty Redis (nothing persisted): the old claim is gone, the store works.
      expect(await store.claim([k], 'B', LONG, LONG)).toEqual(['claimed']);
      expect(await store.increment('rl:after', 2, LONG)).toBe(2);
    } finally {
      await connection.close();
    }
  });

  it('a busy event loop is not a stalled Redis: an answer that came while the loop was blocked past timeoutMs is taken', async () => {
    const connection = await connectRedisStore(own.url, { onError: quiet, timeoutMs: 200 });
    try {
      const k = uuidKey();
      const claimed = connection.store.claim([k], 'A', LONG, LONG);
      // Written to the socket (node-redis writes in a later tick).
      await new Promise((resolve) => setImmediate(resolve));
      // The process busy for 400 ms (a long request, a GC): Redis answers meanwhile, and both the
      // answer and the timer are due when the loop turns again. Timers run first in Node's loop.
      const end = performance.now() + 400;
      while (performance.now() < end);
      expect(await claimed).toEqual(['claimed']);
    } finally {
      await connection.close();
    }
  });

  it('stalled (SIGSTOP): a call rejects after timeoutMs, the next ones at once; its claims are released behind it', async () => {
    const connection = await connectRedisStore(own.url, { onError: quiet, timeoutMs: 200 });
    try {
      const { store } = connection;
      const k = uuidKey();
      own.pause();
      try {
        await expect(store.claim([k], 'A', LONG, LONG)).rejects.toThrow('claim timed out after 200 ms');
        // Until Redis answers, no request waits for the timeout again.
        await allReject(store, /skipped: Redis has not answered calls that timed out/);
      } finally {
        own.resume();
      }
      // Redis ran the late claim of 'A' and then its release: another owner can claim the key.
      await eventually(async () => (await store.claim([k], 'B', LONG, LONG))[0] === 'claimed', 'late claim released');
      expect(await store.increment('rl:after-stall', 1, LONG)).toBe(1);
    } finally {
      await connection.close();
    }
  });

  it('a client left with its offline queue: a call rejects after timeoutMs, the next at once; a late claim is released behind it', async () => {
    const client = createClient({ url: own.url });
    client.on('error', quiet);
    await client.connect();
    try {
      const store = createRedisStore(client, { timeoutMs: 200 });
      const k = uuidKey();
      await own.stop();
      await eventually(async () => !client.isReady, 'client noticed the stop');
      await expect(store.claim([k], 'A', LONG, LONG)).rejects.toThrow('claim timed out after 200 ms');
      await expect(store.increment('rl:y', 1, LONG)).rejects.toThrow('increment skipped');
      await own.start();
      await eventually(async () => (await store.ping!(), true), 'client reconnected');
      // The queued claim ran on reconnection, and the release queued behind it too.
      expect(await store.claim([k], 'B', LONG, LONG)).toEqual(['claimed']);
    } finally {
      client.destroy();
    }
  });

  it('connectRedisStore while Redis is down: resolves not connected, rejects calls, connects when Redis starts', async () => {
    await own.stop();
    const errors: Error[] = [];
    const connection = await connectRedisStore(own.url, { onError: (e) => errors.push(e) });
    try {
      expect(connection.connected).toBe(false);
      expect(errors[0]?.message).toMatch(/ECONNREFUSED/);
      await allReject(connection.store, /Redis store: \w+ failed/);
      await own.start();
      await eventually(async () => (await connection.store.ping!(), true), 'client connected');
      expect(await connection.store.claim([uuidKey()], 'A', LONG, LONG)).toEqual(['claimed']);
    } finally {
      await connection.close();
    }
  });
});

describe('redactRedisUrl and connectRedisStore input', () => {
  it.each([
    ['redis://app:s3cret@cache.internal:6379/2', 'redis://app:***@cache.internal:6379/2'],
    ['redis://:s3cret@cache.internal:6379', 'redis://:***@cache.internal:6379'],
    ['rediss://default:p%40ss@h.example:6380', 'rediss://default:***@h.example:6380'],
    ['redis://u:p@ss/w@rd@h:1/0', 'redis://u:***@h:1/0'],
    ['redis://lonesecret@h', 'redis://***@h'],
    ['unix://u:p@/run/redis.sock?db=1', 'unix://u:***@/run/redis.sock?db=1'],
    ['redis://h/0?password=zz&x=1', 'redis://h/0?password=***&x=1'],
    ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
  ])('%s → %s', (url, redacted) => {
    expect(redactRedisUrl(url)).toBe(redacted);
  });

  it('with a password: connects with the right one; a wrong one is refused at once, naming the cause, no message carrying either', async () => {
    const secured = await startRedisServer({ args: ['--requirepass', 'right-s3cret'] });
    const errors: Error[] = [];
    const wrong = connectRedisStore(`redis://:wrong-s3cret@127.0.0.1:${secured.port}`, { onError: (e) => errors.push(e) }).then(
      () => undefined,
      (error: Error) => error,
    );
    const right = await connectRedisStore(`redis://:right-s3cret@127.0.0.1:${secured.port}`, { onError: quiet });
    try {
      // Retrying a wrong password never gets better: loud at start-up, not a silent retry loop.
      const refusal = await wrong;
      expect(refusal?.message).toMatch(new RegExp(`^Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${secured.port} refused the credentials: WRONGPASS`));
      for (const error of [...errors, refusal!]) expect(`${error.message} ${error.stack}`).not.toMatch(/s3cret/);
      expect(right.connected).toBe(true);
      expect(await right.store.claim([uuidKey()], 'A', LONG, LONG)).toEqual(['claimed']);
    } finally {
      await right.close();
      await secured.stop();
    }
  });

  it('refuses a URL without a Redis scheme, without printing its password', async () => {
    const refusal = connectRedisStore('http://user:hunter2@h:6379');
    await expect(refusal).rejects.toThrow('url must start with redis://, rediss:// or unix:// (got http://user:***@h:6379)');
  });
});

describe('packaging', () => {
  it('a missing redis-server fails the tests with the command that installs it (never a skip)', async () => {
    await expect(startRedisServer({ binary: '/nonexistent/redis-server' })).rejects.toThrow(
      'redis-server not found at /nonexistent/redis-server. Install it: apt-get update && apt-get install -y --no-install-recommends redis-server',
    );
  });

  it('only src/proxy/stores/redis-connect.ts imports `redis` (an optional peer, reached only through engage-sdk/proxy/redis)', () => {
    const importers = (readdirSync('src', { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => /^(import|export)\b[^;]*?from ['"](redis|@redis\/[^'"]+)['"]/m.test(readFileSync(join('src', file), 'utf8')));
    expect(importers.map((file) => file.replaceAll('\\', '/'))).toEqual(['proxy/stores/redis-connect.ts']);
  });
});
