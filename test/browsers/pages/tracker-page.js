// Test harness for the browser scenarios: exposes the built tracker (ESM, as a bundler loads it)
// to evaluate(). Storage faults are made here, in the page, not with a driver's init script:
// WebDriver classic has none, and this way every engine gets exactly the same fault.
import { createTracker } from '/dist/index.js';

window.engageErrors = [];

const storageFaults = {
  // As in a browser or mode without IndexedDB.
  missing() {
    try {
      Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true });
    } catch {
      Object.defineProperty(Object.getPrototypeOf(window), 'indexedDB', { value: undefined, configurable: true });
    }
  },
  // As Safari's can (WebKit 226547): an open request that never fires success, error or blocked.
  hang() {
    IDBFactory.prototype.open = () =>
      /** @type {IDBOpenDBRequest} a stand-in with none of its events */ (
        /** @type {unknown} */ ({ result: undefined, error: null, readyState: 'pending', addEventListener() {}, removeEventListener() {} })
      );
  },
};

window.startTracker = (options = {}, storage) => {
  if (storage) storageFaults[storage]();
  window.tracker = createTracker({
    endpoint: '/engage',
    customerId: 'user-1',
    flushInterval: 500,
    onError: (error) => window.engageErrors.push({ name: error.name, message: error.message, status: /** @type {{ status?: number }} HttpError's */ (error).status }),
    ...options,
  });
};
window.experience = (n = 0) => ({
  cid: `cid-${n}`,
  experience: `Experience ${n}`,
  svc_locale_id: '0',
  svc_variation_id: '2',
  audience_name: 'All users',
  audience_id: '5A',
  type: 'Web Personalization',
});
window.record = (count, action = 'shown') => {
  const ids = [];
  for (let i = 0; i < count; i++) ids.push(window.tracker[action](window.experience(i % 3), action === 'clicked' ? { b_id: 'Buy' } : undefined));
  return ids;
};
window.harnessReady = true;
