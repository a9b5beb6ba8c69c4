// @vitest-environment happy-dom
// When the page asks the delivery service worker for a sync, and what it tells it, with a stubbed
// fetch, fake-indexeddb and a stand-in service worker container. The worker delivering with no
// page open is proven in Chromium (test/browsers/background-sync.ts).
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngageError } from '../../src/errors';
import { createTracker } from '../../src/tracker/create-tracker';
import type { Tracker, TrackerOptions } from '../../src/tracker/types';
import { context, started } from './fixtures';

let errors: EngageError[];
let trackers: Tracker[];
let failing: boolean;
const fetchStub = vi.fn(async () => (failing ? Promise.reject(new TypeError('Failed to fetch')) : Response.json({ status: 'success' })));
const postMessage = vi.fn();
const syncRegister = vi.fn(async () => {});
const register = vi.fn(async () => ({ active: { postMessage }, sync: { register: syncRegister } }));

function make(options: Partial<TrackerOptions> = {}): Tracker {
  const tracker = createTracker({
    endpoint: '/engage',
    customerId: 'u-1',
    namespace: 'shop',
    fetch: fetchStub,
    onError: (error) => errors.push(error),
    flushInterval: 60_000,
    serviceWorker: '/engage-sw.js',
    ...options,
  });
  trackers.push(tracker);
  return tracker;
}
const setOnline = (onLine: boolean) => Object.defineProperty(navigator, 'onLine', { value: onLine, configurable: true });
const hide = () => {
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
};
/** Lets the registration's and the wake's promises settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  localStorage.clear();
  errors = [];
  trackers = [];
  failing = false;
  setOnline(true);
  vi.clearAllMocks();
  Object.defineProperty(navigator, 'serviceWorker', { value: { register }, configurable: true });
  (globalThis as { SyncManager?: unknown }).SyncManager = function SyncManager() {};
});
afterEach(() => {
  for (const tracker of trackers) tracker.destroy();
  delete (globalThis as { SyncManager?: unknown }).SyncManager;
  setOnline(true);
});

describe('the serviceWorker option', () => {
  it('without Background Sync (Firefox, Safari): registers nothing, asks nothing, delivers as before', async () => {
    delete (globalThis as { SyncManager?: unknown }).SyncManager;
    const tracker = make();
    const id = tracker.shown(context);
    await tracker.flush();
    failing = true;
    tracker.shown(context);
    await tracker.flush().catch(() => {});
    hide();
    await settle();
    expect(register).not.toHaveBeenCalled();
    expect(fetchStub).toHaveBeenCalled();
    expect(id).toBeTruthy();
    expect(errors.map((error) => error.name)).toEqual(['NetworkError']);
  });

  it('registers the worker at start, and asks for nothing while delivery succeeds, hidden or not', async () => {
    const tracker = make();
    tracker.shown(context);
    await tracker.flush();
    hide();
    await settle();
    expect(register).toHaveBeenCalledWith('/engage-sw.js');
    expect(syncRegister).not.toHaveBeenCalled();
    expect(postMessage).not.toHaveBeenCalled();
  });

  it("when a failure streak begins: tells the worker the endpoint and options, then asks for the namespace's sync", async () => {
    const tracker = make({ headers: { 'x-csrf': 't' } });
    failing = true;
    tracker.shown(context);
    await tracker.flush().catch(() => {});
    await settle();
    expect(postMessage).toHaveBeenCalledTimes(1);
    const [tag, url, json] = postMessage.mock.calls[0]![0] as [string, string, string];
    expect([tag, url]).toEqual(['engage-sdk:shop', '/engage/v1/experiences/events']);
    // What survives JSON: no functions (fetch, onError), which a message could not carry.
    expect(JSON.parse(json)).toEqual({
      endpoint: '/engage',
      customerId: 'u-1',
      namespace: 'shop',
      flushInterval: 60_000,
      serviceWorker: '/engage-sw.js',
      headers: { 'x-csrf': 't' },
    });
    expect(syncRegister).toHaveBeenCalledWith('engage-sdk:shop');
    // The streak goes on: no further ask.
    await tracker.flush().catch(() => {});
    await settle();
    expect(syncRegister).toHaveBeenCalledTimes(1);
  });

  it('when the page hides offline, before any attempt failed', async () => {
    const tracker = make();
    await started();
    tracker.shown(context);
    setOnline(false);
    hide();
    await settle();
    expect(syncRegister).toHaveBeenCalledWith('engage-sdk:shop');
  });

  it('an opted-out page asks for nothing', async () => {
    const tracker = make();
    tracker.optOut();
    failing = true;
    setOnline(false);
    hide();
    await settle();
    expect(syncRegister).not.toHaveBeenCalled();
  });

  it('a registration that fails is reported as a ValidationError of serviceWorker; nothing throws', async () => {
    register.mockRejectedValueOnce(new TypeError('A bad HTTP response code (404) was received when fetching the script.'));
    const tracker = make();
    failing = true;
    tracker.shown(context);
    await tracker.flush().catch(() => {});
    await settle();
    expect(errors.map((error) => [error.name, (error as { field?: string }).field])).toContainEqual(['ValidationError', 'serviceWorker']);
    expect(syncRegister).not.toHaveBeenCalled();
  });
});
