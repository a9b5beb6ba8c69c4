// IndexedDB that is missing, hangs on open (as Safari's has) or fails at runtime (quota), in real
// Chromium: the tracker carries on from memory, says so through onError, and loses nothing.
import { expect, type Page, test } from '@playwright/test';
import { admin, openTracker, received, record, type Stack, startStack } from '../support/stack';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack({ proxy: { rateLimits: { experienceEvents: {} } } });
});
test.afterAll(async () => {
  await stack.close();
});
test.beforeEach(async () => {
  await admin(stack, 'reset', { body: {} });
});

const errorNames = (page: Page) => page.evaluate(() => (window as unknown as { engageErrors: Array<{ name: string }> }).engageErrors.map((e) => e.name));
const flush = (page: Page) => page.evaluate(() => (window as unknown as { tracker: { flush(): Promise<void> } }).tracker.flush());
const deliveredIds = async () => new Set((await received(stack)).events.map((event) => event.svc_event_uuid));

test('IndexedDB missing: events delivered from memory, StorageError reported', async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(window, 'indexedDB', { value: undefined }));
  await openTracker(page, stack);
  const ids = await record(page, 30);
  await flush(page);
  expect(await deliveredIds()).toEqual(new Set(ids));
  expect(await errorNames(page)).toContain('StorageError');
});

test('IndexedDB hanging on open: after storageTimeout the tracker delivers from memory', async ({ page }) => {
  // An open request that never fires success, error or blocked.
  await page.addInitScript(() => {
    IDBFactory.prototype.open = function () {
      return Object.create(IDBOpenDBRequest.prototype) as IDBOpenDBRequest;
    };
  });
  await openTracker(page, stack, { storageTimeout: 300 });
  const ids = await record(page, 30);
  await flush(page);
  expect(await deliveredIds()).toEqual(new Set(ids));
  expect(await errorNames(page)).toContain('StorageError');
});

test('IndexedDB failing at runtime (quota): what was stored and what came after are all delivered', async ({ page }) => {
  // The upstream is down while the first events are stored, so they sit in IndexedDB.
  await admin(stack, 'faults', { body: { ratio: 1, statuses: [503], retryAfterSeconds: 1 } });
  await openTracker(page, stack);
  const before = await record(page, 20);
  await expect.poll(() => errorNames(page)).toContain('HttpError');
  // Then every write fails as a full disk does.
  await page.evaluate(() => {
    IDBObjectStore.prototype.put = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });
  const after = await record(page, 20);
  await admin(stack, 'faults', { method: 'DELETE' });
  await expect.poll(async () => (await received(stack)).unique, { timeout: 30_000 }).toBe(40);
  expect(await deliveredIds()).toEqual(new Set([...before, ...after]));
  expect(await errorNames(page)).toContain('StorageError');
});
