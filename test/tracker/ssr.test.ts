// @vitest-environment node
// Importing the package on a server must touch no browser global, and a tracker created there
// (SSR by mistake) must not throw.
import { afterAll, describe, expect, it, vi } from 'vitest';

const touched: string[] = [];
const names = ['window', 'document', 'indexedDB', 'localStorage', 'navigator', 'IDBKeyRange'];
const saved = names.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)] as const);
for (const name of names) {
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() {
      touched.push(name);
      return undefined;
    },
  });
}
afterAll(() => {
  for (const [name, descriptor] of saved) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else delete (globalThis as Record<string, unknown>)[name];
  }
});

describe('under Node', () => {
  it('importing engage-sdk touches no window, document, indexedDB, localStorage or navigator', async () => {
    const sdk = await import('../../src/index');
    expect(typeof sdk.createTracker).toBe('function');
    expect(touched).toEqual([]);
  });

  it('a tracker created without a browser records to memory and never throws', async () => {
    const { createTracker } = await import('../../src/index');
    const errors: string[] = [];
    const fetch = vi.fn(async () => Response.json({ status: 'success' }));
    const tracker = createTracker({ endpoint: 'http://127.0.0.1:1/engage', customerId: 'u', fetch, onError: (e) => errors.push(e.code) });
    const id = tracker.shown({ cid: 'c', experience: 'e', svc_locale_id: '0', svc_variation_id: '1', audience_name: 'a', audience_id: 'b' });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await tracker.flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(errors).toEqual(['ERR_STORAGE']);
    tracker.destroy();
  });
});
