// A master of a real 3+3 Redis Cluster killed (kill -9) under load, with two engage-proxy processes
// from the environment only: no event lost under either ENGAGE_STORE_FAILURE policy, none accepted
// twice under `retry`, readiness 503 while claims fail and 200 after, and both proxies back to no
// store errors after the replica's promotion, without a restart.
import { afterEach, describe, expect, it } from 'vitest';
import { startProxyProcess, type ProxyProcess } from '../support/proxy-process';
import { startRedisCluster, type RedisCluster } from '../support/redis-cluster';
import { experienceBody, KEYS, startUpstream, WORKSPACE, type Upstream } from './support';

const XP = '/v1/experiences/events';
const LOAD_MS = 20_000;
const KILL_AT_MS = 5_000;
const CLIENTS = 4;

let cluster: RedisCluster | undefined;
let upstream: Upstream | undefined;
let proxies: ProxyProcess[] = [];
afterEach(async () => {
  await Promise.all(proxies.map((proxy) => proxy.stop()));
  await Promise.all([cluster?.stop(), upstream?.close()]);
  proxies = [];
});

const storeErrors = async (proxy: ProxyProcess) => Number(/^engage_proxy_store_errors_total (\d+)/m.exec(await (await fetch(`${proxy.url}/metrics`)).text())![1]);

async function killMasterUnderLoad(policy: 'forward' | 'retry') {
  [cluster, upstream] = await Promise.all([startRedisCluster(), startUpstream()]);
  const env = {
    ENGAGE_WORKSPACE_ID: WORKSPACE,
    ENGAGE_PERSONALIZE_KEY: KEYS.personalize,
    ENGAGE_SDK_URL: upstream.url,
    ENGAGE_REDIS_URL: cluster.url,
    ENGAGE_STORE_FAILURE: policy,
    ENGAGE_RATE_LIMITS: 'off',
    ENGAGE_LOG_LEVEL: 'error',
  };
  proxies = await Promise.all([startProxyProcess(env), startProxyProcess(env)]);
  const started = Date.now();
  const until = started + LOAD_MS;

  // Readiness and store errors of both proxies, every 250 ms.
  const watched = proxies.map(() => ({ ready: [] as Array<{ at: number; status: number; store: string }>, errors: [] as Array<{ at: number; count: number }> }));
  const watching = (async () => {
    while (Date.now() < until) {
      await Promise.all(
        proxies.map(async (proxy, i) => {
          const at = Date.now();
          const res = await fetch(`${proxy.url}/readyz`);
          watched[i]!.ready.push({ at, status: res.status, store: ((await res.json()) as { checks: { store: string } }).checks.store });
          watched[i]!.errors.push({ at, count: await storeErrors(proxy) });
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();

  // The kill, 5 s in, of a master other than the node the URL names; then its replica's promotion.
  let promotedAt = 0;
  const killing = (async () => {
    await new Promise((resolve) => setTimeout(resolve, KILL_AT_MS));
    const victim = (await cluster.masters()).find((master) => master.port !== cluster!.servers[0]!.port)!;
    await victim.server.kill();
    const replica = (await cluster.nodes()).find((node) => node.master === victim.id)!;
    await expect
      .poll(async () => (await cluster!.nodes()).find((node) => node.id === replica.id)!.flags.includes('master'), { timeout: 15_000, interval: 100 })
      .toBe(true);
    promotedAt = Date.now();
  })();

  // 4 clients: 20-event requests, each re-sent (to the other proxy) until a 2xx, as the tracker does.
  const sent: string[] = [];
  let requests = 0;
  let resent = 0;
  const statuses = new Map<number, number>();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let n = 0; Date.now() < until; n++) {
        const body = JSON.stringify(experienceBody(20));
        sent.push(...(JSON.parse(body) as ReturnType<typeof experienceBody>).elements[0]!.actions.map((action) => action.svc_event_uuid as string));
        for (let attempt = 0; ; attempt++) {
          const proxy = proxies[(client + n + attempt) % 2]!;
          const status = await fetch(`${proxy.url}${XP}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
            async (res) => (await res.arrayBuffer(), res.status),
            () => 0,
          );
          requests++;
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status >= 200 && status < 300) break;
          resent++;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    }),
  );
  await Promise.all([killing, watching]);

  // Recovery without a restart: fresh requests on both proxies add no store error.
  const before = await Promise.all(proxies.map(storeErrors));
  for (const proxy of proxies) {
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${proxy.url}${XP}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(experienceBody(20)) });
      expect(res.status).toBe(200);
    }
  }
  const after = await Promise.all(proxies.map(storeErrors));
  const stored = await upstream.experienceEvents();
  const accepted = new Set(stored.events.map((event) => event.svc_event_uuid));
  const lost = sent.filter((uuid) => !accepted.has(uuid)).length;
  // When each proxy's store errors stopped growing, counted from the promotion.
  const settled = watched.map(({ errors }) => {
    const last = errors.at(-1)!.count;
    return errors.find((sample) => sample.count === last)!.at - promotedAt;
  });
  const notReady = watched.map(({ ready }) => ready.filter((sample) => sample.status === 503));
  console.log(
    `kill -9 of a master, ENGAGE_STORE_FAILURE=${policy}: ${sent.length} events in ${requests} requests (${resent} re-sent; statuses ${JSON.stringify(Object.fromEntries(statuses))}); ` +
      `lost ${lost}, accepted twice ${stored.duplicates}; promoted ${promotedAt - started - KILL_AT_MS} ms after the kill; ` +
      `store errors ${before.join(' / ')} (last new one ${settled.map((ms) => `${ms} ms`).join(' / ')} after the promotion), then ${after.join(' / ')} after 2 × 10 fresh requests; ` +
      `/readyz 503 for ${notReady.map((samples) => samples.length).join(' / ')} probes (${notReady[0]![0]?.store}), last ${watched.map(({ ready }) => ready.at(-1)!.status).join(' / ')}`,
  );
  return { lost, duplicates: stored.duplicates, before, after, settled, notReady, watched };
}

describe('a master killed (kill -9) during 20 s of load on a Redis Cluster', () => {
  it('ENGAGE_STORE_FAILURE=retry: 0 lost, 0 accepted twice; /readyz 503 while claims fail, then 200; no new store error after the promotion', async () => {
    const result = await killMasterUnderLoad('retry');
    expect(result.lost).toBe(0);
    expect(result.duplicates).toBe(0);
    for (const samples of result.notReady) expect(samples.length).toBeGreaterThan(0);
    expect(result.notReady[0]![0]!.store).toMatch(/^cannot claim \((connection|timeout|redirection)/);
    for (const { ready } of result.watched) expect(ready.at(-1)!.status).toBe(200);
    expect(result.after).toEqual(result.before);
    // "Within a few seconds of the promotion": node-redis re-reads the topology every second
    // while a node is reconnecting.
    for (const ms of result.settled) expect(ms).toBeLessThan(6_000);
  }, 60_000);

  it('ENGAGE_STORE_FAILURE=forward: 0 lost (duplicates printed); no new store error after the promotion', async () => {
    const result = await killMasterUnderLoad('forward');
    expect(result.lost).toBe(0);
    expect(result.after).toEqual(result.before);
    for (const { ready } of result.watched) expect(ready.at(-1)!.status).toBe(200);
    for (const ms of result.settled) expect(ms).toBeLessThan(6_000);
  }, 60_000);
});
