// Two `engage-proxy` processes behind a round-robin load balancer, one real Redis, the emulator
// failing 30% of requests: four tabs recording at once must see every event accepted once.
import { expect, test } from '@playwright/test';
import { startProxyProcess, type ProxyProcess } from '../../support/proxy-process';
import { startRedisServer, type RedisServer } from '../../support/redis-server';
import { admin, openTracker, received, record, type Stack, startStack } from '../support/stack';

let redis: RedisServer;
let stack: Stack;
let proxies: ProxyProcess[] = [];
const traffic = { sent: [0, 0], running: 0 };

test.beforeAll(async () => {
  redis = await startRedisServer();
  let next = 0;
  stack = await startStack({
    // The load balancer: /engage/* alternates between the two processes. Each tab stands for
    // another visitor (X-Forwarded-For from its header), so per-client budgets apply as in production.
    intercept: async (request: Request) => {
      const url = new URL(request.url);
      if (!url.pathname.startsWith('/engage/')) return undefined;
      const target = next++ % 2;
      traffic.sent[target]!++;
      traffic.running++;
      try {
        const headers = new Headers(request.headers);
        headers.set('x-forwarded-for', `198.51.100.${Number(headers.get('x-tab') ?? 0) + 1}`);
        headers.set('x-forwarded-host', url.host);
        headers.set('x-forwarded-proto', 'http');
        const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
        const response = await fetch(`${proxies[target]!.url}${url.pathname}${url.search}`, { method: request.method, headers, body });
        return new Response(await response.arrayBuffer(), { status: response.status, headers: response.headers });
      } catch {
        return Response.error();
      } finally {
        traffic.running--;
      }
    },
  });
  const emulator = (stack as unknown as { emulator: { workspaceId: string; keys: Record<string, string> } }).emulator;
  const env = {
    ENGAGE_WORKSPACE_ID: emulator.workspaceId,
    ENGAGE_PERSONALIZE_KEY: emulator.keys.personalize!,
    ENGAGE_SDK_URL: stack.emulatorUrl,
    ENGAGE_BASE_PATH: '/engage',
    ENGAGE_REDIS_URL: redis.url,
    ENGAGE_TRUSTED_PROXIES: '127.0.0.1',
  };
  proxies = await Promise.all([startProxyProcess(env), startProxyProcess(env)]);
});
test.afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.stop()));
  await stack?.close();
  await redis?.stop();
});

test('4 tabs × 250 over two instances and one Redis, 30% upstream faults: 1,000/1,000, none accepted twice', async ({ context }) => {
  await admin(stack, 'faults', { body: { ratio: 0.3, statuses: [500, 503, 429, 'reset'], retryAfterSeconds: 1, seed: 11 } });
  const pages = await Promise.all(Array.from({ length: 4 }, () => context.newPage()));
  // Small requests, so there are many of them to spread and to fail.
  for (const [i, page] of pages.entries()) await openTracker(page, stack, { maxRequestBytes: 8_000, headers: { 'x-tab': String(i) } });
  const ids = (
    await Promise.all(
      pages.map(async (page) => {
        const mine: string[] = [];
        for (let i = 0; i < 5; i++) {
          mine.push(...(await record(page, 50)));
          await page.waitForTimeout(50);
        }
        return mine;
      }),
    )
  ).flat();
  expect(new Set(ids).size).toBe(1_000);
  await expect.poll(async () => (await received(stack)).unique, { timeout: 90_000 }).toBe(1_000);
  await expect.poll(() => traffic.running, { timeout: 30_000 }).toBe(0);
  const { events, duplicates } = await received(stack);
  expect(new Set(events.map((event) => event.svc_event_uuid))).toEqual(new Set(ids));
  const { requests } = await admin<{ requests: Array<{ fault: boolean }> }>(stack, 'requests');
  const failed = requests.filter((entry) => entry.fault).length;
  console.log(
    `two instances + Redis, 4 tabs × 250, 30% faults: 1000/1000 delivered, ${duplicates} accepted twice; requests per instance ${traffic.sent.join(' / ')}; ${failed} of ${requests.length} upstream requests failed`,
  );
  expect(failed).toBeGreaterThan(0);
  expect(duplicates).toBe(0);
});
