// Two engage-proxy processes configured from the environment only, ENGAGE_REDIS_URL naming one node
// of a real 3+3 Redis Cluster, as a managed cluster's endpoint is named; and the misconfigurations
// an operator makes first (a wrong password, a URL nothing answers), each loud.
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxyProcess, type ProxyProcess } from '../support/proxy-process';
import { startRedisCluster, type RedisCluster } from '../support/redis-cluster';
import { startRedisServer } from '../support/redis-server';
import { experienceBody, KEYS, WORKSPACE } from './support';

const XP = '/v1/experiences/events';
const post = (proxy: ProxyProcess, body: unknown) =>
  fetch(`${proxy.url}${XP}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** An upstream that answers 200 after 1.5 s (a slow forward to overlap with) and counts every UUID it accepts. */
async function slowUpstream(): Promise<{ url: string; accepted: Map<string, number>; close(): Promise<void> }> {
  const accepted = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      setTimeout(() => {
        const body = JSON.parse(text) as { elements: Array<{ actions: Array<{ svc_event_uuid: string }> }> };
        for (const element of body.elements) for (const action of element.actions) accepted.set(action.svc_event_uuid, (accepted.get(action.svc_event_uuid) ?? 0) + 1);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success"}');
      }, 1_500);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    accepted,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describe('two engage-proxy processes on a Redis Cluster', () => {
  let cluster: RedisCluster;
  let upstream: Awaited<ReturnType<typeof slowUpstream>>;
  let proxies: ProxyProcess[] = [];
  beforeAll(async () => {
    [cluster, upstream] = await Promise.all([startRedisCluster(), slowUpstream()]);
    const env = { ENGAGE_WORKSPACE_ID: WORKSPACE, ENGAGE_PERSONALIZE_KEY: KEYS.personalize, ENGAGE_SDK_URL: upstream.url, ENGAGE_REDIS_URL: cluster.url };
    // A with two worker processes: ENGAGE_WORKERS over the cluster as over one Redis.
    proxies = await Promise.all([startProxyProcess({ ...env, ENGAGE_WORKERS: '2' }), startProxyProcess(env)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.stop()));
    await Promise.all([cluster?.stop(), upstream?.close()]);
  });

  it('say they found the cluster and are ready', async () => {
    // A's primary only forks (its workers connect); B says what it found.
    expect(proxies[0]!.output.join('\n')).toMatch(/store: redis:\/\/127\.0\.0\.1:\d+; 2 workers/);
    expect(proxies[1]!.output.join('\n')).toMatch(/store: redis:\/\/127\.0\.0\.1:\d+ \(Redis Cluster\)/);
    const ready = await Promise.all(proxies.map(async (proxy) => [(await fetch(`${proxy.url}/readyz`)).status, await (await fetch(`${proxy.url}/readyz`)).json()]));
    expect(ready).toEqual(proxies.map(() => [200, { status: 'ready', checks: { keys: 'ok', store: 'ok' } }]));
  });

  it('the same 20 events at A, then at B during A’s 1.5 s forward, five times either way: 200 of 200 events delivered, 0 accepted twice', async () => {
    const sent: string[] = [];
    for (let round = 0; round < 10; round++) {
      const [first, second] = round % 2 ? [proxies[1]!, proxies[0]!] : [proxies[0]!, proxies[1]!];
      const body = experienceBody(20);
      sent.push(...body.elements[0]!.actions.map((action) => action.svc_event_uuid as string));
      // The reload: the new page re-sends what the old page's request is still forwarding.
      const a = post(first, body);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const b = post(second, body);
      const [ra, rb] = await Promise.all([a, b]);
      expect([ra.status, rb.status]).toEqual([200, 200]);
      expect(rb.headers.get('x-engage-deduplicated')).toBe('20');
    }
    const twice = [...upstream.accepted.values()].filter((n) => n > 1).length;
    console.log(`cluster, reload during the forward: ${sent.filter((uuid) => upstream.accepted.has(uuid)).length}/${sent.length} delivered, ${twice} accepted twice`);
    expect(sent.filter((uuid) => upstream.accepted.get(uuid) === 1)).toHaveLength(200);
    expect(twice).toBe(0);
  }, 60_000);
});

describe('ENGAGE_REDIS_URL misconfigured', () => {
  const env = { ENGAGE_WORKSPACE_ID: WORKSPACE, ENGAGE_PERSONALIZE_KEY: KEYS.personalize, ENGAGE_SDK_URL: 'http://127.0.0.1:9' };

  it('a wrong password: engage-proxy refuses to start, naming ENGAGE_REDIS_URL and the cause, never the password (one process, and with ENGAGE_WORKERS=2)', async () => {
    const secured = await startRedisServer({ args: ['--requirepass', 'right-s3cret'] });
    try {
      for (const workers of ['1', '2']) {
        const failure = await startProxyProcess({ ...env, ENGAGE_WORKERS: workers, ENGAGE_REDIS_URL: `redis://:wrong-s3cret@127.0.0.1:${secured.port}` }).then(
          (proxy) => (proxy.stop(), 'started'),
          (error: Error) => error.message,
        );
        expect(failure, `ENGAGE_WORKERS=${workers}`).toMatch(/exited with 1/);
        expect(failure).toContain(`engage-proxy: ENGAGE_REDIS_URL: Redis at redis://:***@127.0.0.1:${secured.port} refused the credentials: WRONGPASS`);
        expect(failure).not.toMatch(/s3cret/);
      }
    } finally {
      await secured.stop();
    }
  });

  it('a URL nothing answers: starts, says so, and is not ready with the reason (logged once, not per probe)', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createTcpServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const proxy = await startProxyProcess({ ...env, ENGAGE_REDIS_URL: `redis://127.0.0.1:${port}` });
    try {
      expect(proxy.output.join('\n')).toContain(
        `store: redis://127.0.0.1:${port} (ENGAGE_REDIS_URL not reachable yet: connect ECONNREFUSED 127.0.0.1:${port}; not ready`,
      );
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${proxy.url}/readyz`);
        expect([res.status, await res.json()]).toEqual([503, { status: 'not ready', checks: { keys: 'ok', store: 'unreachable' } }]);
      }
      await expect.poll(() => proxy.output.filter((line) => line === 'engage-proxy: not ready: store: unreachable').length).toBe(1);
    } finally {
      await proxy.stop();
    }
  });
});
