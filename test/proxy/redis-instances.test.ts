// Several proxy instances sharing one real redis-server: budgets that hold across instances, and a
// Redis that stops mid-run and comes back. Two `engage-proxy` processes, as operators run them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy } from '../../src/proxy/create-proxy';
import { connectRedisStore, type RedisStoreConnection } from '../../src/proxy/stores/redis-connect';
import { startProxyProcess, type ProxyProcess } from '../support/proxy-process';
import { startRedisServer, type RedisServer } from '../support/redis-server';
import { experienceBody, KEYS, startUpstream, WORKSPACE, type Upstream, PAGE_HEADERS } from './support';

const XP = '/v1/experiences/events';
let redis: RedisServer;
let upstream: Upstream;
beforeAll(async () => {
  [redis, upstream] = await Promise.all([startRedisServer(), startUpstream()]);
});
afterAll(async () => {
  await Promise.all([redis?.stop(), upstream?.close()]);
});

const post = (handler: (request: Request) => Promise<Response>, body: unknown) =>
  handler(new Request(`https://shop.example${XP}`, { method: 'POST', headers: PAGE_HEADERS, body: JSON.stringify(body) }));

describe('two instances, one Redis', () => {
  let connections: RedisStoreConnection[] = [];
  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
  });

  it('a workspace budget of N admits N in total across both instances, not 2N, and holds again after Redis returns', async () => {
    upstream.emulator.reset();
    connections = await Promise.all([connectRedisStore(redis.url, { onError: () => {} }), connectRedisStore(redis.url, { onError: () => {} })]);
    const budget = { experienceEvents: { workspace: [{ limit: 50, windowMs: 3_600_000 }] } };
    const [a, b] = connections.map((connection) =>
      createProxy({ workspaceId: WORKSPACE, keys: KEYS, sdkUrl: upstream.url, store: connection.store, rateLimits: budget }),
    );
    const round = async () => {
      const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => post(i % 2 ? a! : b!, experienceBody(5)).then((r) => r.status)));
      return { admitted: statuses.filter((s) => s === 200).length, refused: statuses.filter((s) => s === 429).length };
    };
    expect(await round()).toEqual({ admitted: 10, refused: 10 });
    expect((await upstream.experienceEvents()).unique).toBe(50);

    // Redis down: the instances serve without limits rather than refuse events.
    await redis.stop();
    expect(await round()).toEqual({ admitted: 20, refused: 0 });
    // Back (empty: no persistence): budgets apply again, without any action on the instances.
    await redis.start();
    await expect.poll(() => connections.every((connection) => connection.client.isReady), { timeout: 10_000 }).toBe(true);
    expect(await round()).toEqual({ admitted: 10, refused: 10 });
  });
});

describe('engage-proxy processes with ENGAGE_REDIS_URL', () => {
  let proxies: ProxyProcess[] = [];
  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.stop()));
  });

  it('Redis stopped mid-run and started again: nothing lost, duplicates only while it was down, memory resumes', async () => {
    upstream.emulator.reset();
    const env = {
      ENGAGE_WORKSPACE_ID: WORKSPACE,
      ENGAGE_PERSONALIZE_KEY: KEYS.personalize,
      ENGAGE_SDK_URL: upstream.url,
      ENGAGE_REDIS_URL: redis.url,
    };
    proxies = await Promise.all([startProxyProcess(env), startProxyProcess(env)]);
    expect(proxies[0]!.output.join('\n')).toMatch(/store: redis:\/\/127\.0\.0\.1:\d+/);
    const send = (proxy: ProxyProcess, body: unknown) =>
      fetch(`${proxy.url}${XP}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    // Every batch reaches both instances at once, as a reload's overlap does.
    const phase = async (batches: number) => {
      const before = await upstream.experienceEvents();
      for (let i = 0; i < batches; i++) {
        const body = experienceBody(10);
        const statuses = await Promise.all(proxies.map((proxy) => send(proxy, body).then((r) => r.status)));
        expect(statuses).toEqual([200, 200]);
      }
      const after = await upstream.experienceEvents();
      return { delivered: after.unique - before.unique, duplicates: after.duplicates - before.duplicates };
    };

    const up = await phase(10);
    await redis.stop();
    const down = await phase(10);
    await redis.start();
    // The instances pick Redis up again by themselves.
    await expect
      .poll(async () => (await fetch(`${proxies[0]!.url}/readyz`)).status === 200 && (await fetch(`${proxies[1]!.url}/readyz`)).status === 200, { timeout: 15_000 })
      .toBe(true);
    const back = await phase(10);
    console.log(
      `Redis stopped mid-run: ${up.delivered + down.delivered + back.delivered}/300 delivered; accepted twice: ${up.duplicates} before, ${down.duplicates} while Redis was down, ${back.duplicates} after it returned`,
    );
    expect([up.delivered, down.delivered, back.delivered]).toEqual([100, 100, 100]);
    expect(up.duplicates).toBe(0);
    expect(back.duplicates).toBe(0);

    // Memory works again: a re-send is answered without reaching the upstream.
    const body = experienceBody(3);
    await send(proxies[0]!, body);
    const again = await send(proxies[1]!, body);
    expect(again.headers.get('x-engage-deduplicated')).toBe('3');
    // And the outage was counted.
    const metrics = await (await fetch(`${proxies[0]!.url}/metrics`)).text();
    expect(metrics).toMatch(/engage_proxy_store_errors_total(\{[^}]*\})? [1-9]/);
  });
});
