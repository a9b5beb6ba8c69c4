// Every event accepted once, in real Chromium, when a reload leaves the old page's request inside
// the proxy's upstream retries and the new page sends the same events from IndexedDB: the overlap
// that once had 175 of 200 events accepted twice. Once with one proxy instance, once with the
// reloaded page served by a second instance that shares a real Redis.
import { expect, type Page, test } from '@playwright/test';
import { createProxy } from '../../../src/proxy/create-proxy';
import { connectRedisStore } from '../../../src/proxy/stores/redis-connect';
import { startRedisServer, type RedisServer } from '../../support/redis-server';
import { admin, openTracker, received, record, type Stack, startStack } from '../support/stack';

/** The proxy options that make the overlap wide: an upstream attempt takes 200 ms, retries go on ~3 s. */
const SLOW_RETRIES = { rateLimits: { experienceEvents: {} }, retries: 6, retryBaseDelayMs: 400 };

/** Counts upstream attempts and proxy requests still running, from the proxy's own fetch and log. */
function watch() {
  const state = { attempts: 0, running: 0, storeErrors: 0 };
  return {
    state,
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      state.attempts++;
      return fetch(input, init);
    },
    intercept: (request: Request) => {
      if (new URL(request.url).pathname.startsWith('/engage/')) state.running++;
      return undefined;
    },
    // A store call that failed or timed out forwards without a claim (the default policy): a
    // duplicate this test would count, so the line says how many there were.
    logger: (entry: { storeErrors?: number }) => {
      state.running--;
      state.storeErrors += entry.storeErrors ?? 0;
    },
  };
}

async function reloadDuringRetries(page: Page, stack: Stack, w: ReturnType<typeof watch>, afterReload: () => void = () => {}) {
  await admin(stack, 'faults', { body: { ratio: 1, statuses: [503], latencyMs: 200 } });
  // One request carries the whole burst, so the old page's request holds all 200 events.
  await openTracker(page, stack, { flushInterval: 60_000, batchSize: 1_000, maxRequestBytes: 60_000 });
  const ids = await record(page, 200);
  await page.evaluate(() => {
    void (window as unknown as { tracker: { flush(): Promise<void> } }).tracker.flush().catch(() => {});
  });
  // The proxy has seen the upstream fail and is backing off to try again.
  await expect.poll(() => w.state.attempts, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  await page.reload();
  afterReload();
  await admin(stack, 'faults', { method: 'DELETE' });
  await openTracker(page, stack);
  await expect.poll(async () => (await received(stack)).unique, { timeout: 30_000 }).toBe(200);
  // Let every request still in the proxy (the old page's among them) finish before counting.
  await expect.poll(() => w.state.running, { timeout: 30_000 }).toBe(0);
  const { events, duplicates } = await received(stack);
  expect(new Set(events.map((event) => event.svc_event_uuid))).toEqual(new Set(ids));
  return duplicates;
}

test('reload while the old page’s request is in the proxy’s retries: 200/200, none accepted twice', async ({ page }) => {
  const w = watch();
  const stack = await startStack({ proxy: { ...SLOW_RETRIES, fetch: w.fetch, logger: w.logger }, intercept: w.intercept });
  try {
    const duplicates = await reloadDuringRetries(page, stack, w);
    console.log(`reload during proxy retries, one instance: 200/200 delivered, ${duplicates} accepted twice, ${w.state.attempts} upstream attempts`);
    expect(duplicates).toBe(0);
  } finally {
    await stack.close();
  }
});

test.describe('two proxy instances sharing Redis', () => {
  let redis: RedisServer;
  test.beforeAll(async () => {
    redis = await startRedisServer();
  });
  test.afterAll(async () => {
    await redis?.stop();
  });

  test('the reloaded page reaches a second instance: 200/200, none accepted twice', async ({ page }) => {
    const w = watch();
    const first = await connectRedisStore(redis.url);
    const second = await connectRedisStore(redis.url);
    let secondInstance: ((request: Request) => Promise<Response>) | undefined;
    let useSecond = false;
    const stack = await startStack({
      proxy: { ...SLOW_RETRIES, fetch: w.fetch, logger: w.logger, store: first.store },
      intercept: (request: Request) => {
        w.intercept(request);
        // After the reload, the load balancer sends this browser to the other instance.
        return useSecond && new URL(request.url).pathname.startsWith('/engage/') ? secondInstance!(request) : undefined;
      },
    });
    try {
      const emulator = (stack as unknown as { emulator: { workspaceId: string; keys: Record<string, string> } }).emulator;
      secondInstance = createProxy({
        workspaceId: emulator.workspaceId,
        keys: emulator.keys,
        sdkUrl: stack.emulatorUrl,
        basePath: '/engage',
        ...SLOW_RETRIES,
        fetch: w.fetch,
        logger: w.logger,
        store: second.store,
      });
      const duplicates = await reloadDuringRetries(page, stack, w, () => {
        useSecond = true;
      });
      console.log(
        `reload during proxy retries, second instance over Redis: 200/200 delivered, ${duplicates} accepted twice, ${w.state.attempts} upstream attempts, ${w.state.storeErrors} store errors`,
      );
      expect(duplicates).toBe(0);
    } finally {
      await stack.close();
      await Promise.all([first.close(), second.close()]);
    }
  });
});
