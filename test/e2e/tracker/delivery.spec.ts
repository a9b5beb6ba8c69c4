// The tracker in real Chromium, through the real proxy, into the real emulator: what must never be
// lost when the upstream fails, the network drops, the page reloads or closes.
import { expect, test } from '@playwright/test';
import { admin, openTracker, received, record, type Stack, startStack } from '../support/stack';

let stack: Stack;
test.beforeAll(async () => {
  // No per-client budget here: these tests send more in a minute than one real visitor would.
  stack = await startStack({ proxy: { rateLimits: { experienceEvents: {} } } });
});
test.afterAll(async () => {
  await stack.close();
});
test.beforeEach(async () => {
  await admin(stack, 'reset', { body: {} });
});

const uniqueIds = async () => new Set((await received(stack)).events.map((event) => event.svc_event_uuid));

test('delivers the upstream shape: UUID, epoch seconds, offset, platform, context attributes', async ({ page }) => {
  await openTracker(page, stack);
  const [shown] = await record(page, 1);
  const [clicked] = await record(page, 1, 'clicked');
  await page.evaluate(() => (window as unknown as { tracker: { flush(): Promise<void> } }).tracker.flush());
  const { events } = await received(stack);
  expect(events.map((event) => event.svc_event_uuid)).toEqual([shown, clicked]);
  const now = Date.now() / 1000;
  expect(events[1]).toMatchObject({
    customer_id: 'user-1',
    action: 'SVC_PERSONALIZATION_MESSAGE_CLICKED',
    platform: 'web',
    attributes: { cid: 'cid-0', svc_variation_id: '2', b_id: 'Buy', type: 'Web Personalization' },
  });
  expect(Number.isInteger(events[1]!.event_time) && Math.abs(events[1]!.event_time - now) < 60).toBe(true);
});

test('reload while the upstream fails: 200 of 200 delivered after it recovers', async ({ page }) => {
  await admin(stack, 'faults', { body: { ratio: 1, statuses: [500] } });
  await openTracker(page, stack);
  const ids = await record(page, 200);
  // Let delivery fail at least once before the reload.
  await expect.poll(() => page.evaluate(() => (window as unknown as { engageErrors: unknown[] }).engageErrors.length)).toBeGreaterThan(0);
  await page.reload();
  await admin(stack, 'faults', { method: 'DELETE' });
  await openTracker(page, stack);
  await expect.poll(async () => (await received(stack)).unique, { timeout: 30_000 }).toBe(200);
  expect(await uniqueIds()).toEqual(new Set(ids));
  const { duplicates } = await received(stack);
  console.log(`reload under failure: 200/200 delivered, ${duplicates} duplicate(s) at the emulator`);
});

test('offline, then online: everything recorded offline is delivered', async ({ page, context }) => {
  await openTracker(page, stack);
  await context.setOffline(true);
  const ids = await record(page, 50);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { engageErrors: Array<{ name: string }> }).engageErrors.map((e) => e.name)))
    .toContain('NetworkError');
  expect((await received(stack)).unique).toBe(0);
  await context.setOffline(false);
  await expect.poll(async () => (await received(stack)).unique, { timeout: 30_000 }).toBe(50);
  expect(await uniqueIds()).toEqual(new Set(ids));
});

test('a page closed right after recording: all delivered, by it or by the next page', async ({ context }) => {
  const first = await context.newPage();
  await openTracker(first, stack, { flushInterval: 60_000, batchSize: 1_000 });
  const ids = await record(first, 40);
  await first.close();
  const next = await context.newPage();
  await openTracker(next, stack);
  await expect.poll(async () => (await received(stack)).unique, { timeout: 30_000 }).toBe(40);
  expect(await uniqueIds()).toEqual(new Set(ids));
  console.log(`page closed after recording: 40/40 delivered, ${(await received(stack)).duplicates} duplicate(s)`);
});

test('4 tabs recording 250 each: 1,000 unique delivered, no request sent twice by two tabs', async ({ context }) => {
  const pages = await Promise.all(Array.from({ length: 4 }, () => context.newPage()));
  const bodies: number[] = [];
  for (const page of pages) {
    page.on('request', (request) => {
      if (request.url().endsWith('/engage/v1/experiences/events')) bodies.push(Buffer.byteLength(request.postData() ?? ''));
    });
    await openTracker(page, stack);
  }
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
  await expect.poll(async () => (await received(stack)).unique, { timeout: 30_000 }).toBe(1_000);
  expect(await uniqueIds()).toEqual(new Set(ids));
  const { duplicates } = await received(stack);
  console.log(`4 tabs × 250: 1000/1000 unique delivered, ${duplicates} duplicate(s), ${bodies.length} requests, largest body ${Math.max(...bodies)} bytes`);
  expect(Math.max(...bodies)).toBeLessThanOrEqual(60_000);
});

test('30% upstream failures (500/503/429 with Retry-After/connection reset): all delivered', async ({ page }) => {
  await admin(stack, 'faults', { body: { ratio: 0.3, statuses: [500, 503, 429, 'reset'], retryAfterSeconds: 1, seed: 7 } });
  await openTracker(page, stack, { maxRequestBytes: 8_000 });
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    ids.push(...(await record(page, 50)));
    await page.waitForTimeout(100);
  }
  await expect.poll(async () => (await received(stack)).unique, { timeout: 60_000 }).toBe(500);
  expect(await uniqueIds()).toEqual(new Set(ids));
  const { requests } = await admin<{ requests: Array<{ fault: boolean; status: number | 'reset' }> }>(stack, 'requests');
  const injected = requests.filter((entry) => entry.fault);
  // The faults really happened (else this test proves nothing).
  expect(injected.length).toBeGreaterThan(0);
  const mix = [...new Set(injected.map((entry) => entry.status))].join('/');
  console.log(`30% failures: 500/500 delivered, ${(await received(stack)).duplicates} duplicate(s), ${injected.length} of ${requests.length} upstream requests failed (${mix})`);
});

test('user_timezone_offset is the browser zone in seconds east (Kathmandu, +05:45)', async ({ browser }) => {
  const context = await browser.newContext({ timezoneId: 'Asia/Kathmandu' });
  const page = await context.newPage();
  await openTracker(page, stack);
  await record(page, 1);
  await page.evaluate(() => (window as unknown as { tracker: { flush(): Promise<void> } }).tracker.flush());
  expect((await received(stack)).events[0]!.user_timezone_offset).toBe(20_700);
  await context.close();
});

test('null and undefined for optional arguments mean "not given": every call recorded and delivered', async ({ page }) => {
  // onError: undefined and null options, as loose JavaScript callers pass them.
  await openTracker(page, stack, { customerId: 'user-null', onError: undefined, batchSize: null, flushInterval: null, namespace: 'nulls' });
  const ids = await page.evaluate(async () => {
    const w = window as unknown as {
      tracker: { shown(c: unknown, a?: unknown): string; clicked(c: unknown, a?: unknown): string; identify(id: unknown): void; flush(): Promise<void> };
      experience(n: number): unknown;
    };
    const context = w.experience(1);
    const recorded = [w.tracker.shown(context, null), w.tracker.shown(context, undefined), w.tracker.clicked(context, null), w.tracker.clicked(context, undefined)];
    w.tracker.identify(null);
    await w.tracker.flush();
    return recorded;
  });
  expect(ids.every((id) => typeof id === 'string' && id.length === 36)).toBe(true);
  const { events } = await received(stack);
  expect(events.map((event) => event.svc_event_uuid).sort()).toEqual([...ids].sort());
  expect(events.every((event) => event.customer_id === 'user-null' && event.attributes.cid === 'cid-1')).toBe(true);
});
