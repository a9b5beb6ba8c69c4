// The delivery service worker (dist/engage-sw.js): a classic script a site serves from its own
// origin and names in `createTracker({ serviceWorker })` / `data-service-worker`, or imports into
// the service worker it already has with `importScripts('/engage-sw.js')`. It listens to one event,
// `sync`, for the tags `engage-sdk:<namespace>` the tracker registers (background-sync.ts); it
// intercepts no fetch, caches nothing and leaves the worker's lifecycle (install, activate,
// skipWaiting) to whoever owns it.
//
// On a sync it delivers the namespace's durable queue exactly as a page does, with the page's own
// code (delivery.ts, event-queue.ts, batch.ts, retry-policy.ts): under the same Web Lock, so a page
// delivering at the same moment never sends the same event, and with the same verdicts: a 2xx
// removes, a refused event is isolated and dropped (and warned about in the worker's console), and
// a network failure, 429 or 5xx keeps everything and rejects the sync, which the browser fires
// again with backoff. The browser's last attempt (`lastChance`) changes nothing: no failure ever
// drops an event here, so what is left waits for the next page of the site.
//
// What it never sends: events of a visitor who has not consented or has denied (the queue holds
// only events recorded under consent, and a denial empties it), and events recorded before the
// page knew its customer (they wait for a page that calls identify()).
import { createStore, get, set } from 'idb-keyval';
import { noop } from './tracker/console';
import { createDelivery } from './tracker/delivery';
import { createDropCounts } from './tracker/drop-counts';
import { createEventQueue } from './tracker/event-queue';
import { SYNC_TAG, type SyncConfigMessage } from './tracker/sync-config';
import type { TrackerOptions } from './tracker/types';

/** A service worker's event (TypeScript's DOM library has no worker types). */
interface ExtendableEvent extends Event {
  waitUntil(done: Promise<unknown>): void;
}

/** Background Sync's event (WICG): in none of TypeScript's libraries. */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}

/** What the worker keeps per sync tag: the page's options and the events URL. */
type SyncConfig = TrackerOptions & { url: string };

// What the pages told this worker, by tag: a database of its own, so the queue's keeps its layout.
// One store function for the worker's life: its writes and reads then reach IndexedDB in the
// order they were asked for, so a sync fired right after a page's message reads what it said.
const configs = createStore('engage-sdk-sw-v1', 'config');
// The worker's console is the only place a worker can say what went wrong.
const warn = (error: Error) => console.warn(`engage-sdk (service worker): ${error.message}`);

/** Delivers what the tag's namespace queue holds; rejects while something is kept for a later attempt. */
async function deliverQueue(tag: string): Promise<void> {
  const config = await get<SyncConfig>(tag, configs);
  // No page has told this worker where to deliver: nothing to do.
  if (!config) return;
  const namespace = tag.slice(SYNC_TAG.length);
  const queue = createEventQueue(namespace, config.storageTimeout ?? 3_000, warn, noop);
  // No customer of its own: events without one stay queued (the flush then rejects with a ValidationError).
  const delivery = createDelivery({ ...config, namespace }, config.url, queue, () => undefined, warn, noop, createDropCounts(namespace, queue));
  try {
    await delivery._flush();
  } catch (error) {
    // Only events waiting for a customer are left: no retry of this sync could send them.
    if ((error as Error).name !== 'ValidationError') throw error;
  } finally {
    delivery._stop();
  }
}

addEventListener('message', (event) => {
  const data = event.data as unknown;
  if (!Array.isArray(data) || !String(data[0]).startsWith(SYNC_TAG)) return;
  const [tag, url, json] = data as SyncConfigMessage;
  // The customer stays with the page: it may have changed by the time a sync fires.
  // A relative endpoint is relative to the page, not to this script.
  const config: SyncConfig = { ...(JSON.parse(json) as TrackerOptions), customerId: undefined, url: new URL(url, (event.source as unknown as { url: string }).url).href };
  (event as unknown as ExtendableEvent).waitUntil(set(tag, config, configs));
});

addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag.startsWith(SYNC_TAG)) sync.waitUntil(deliverQueue(sync.tag));
});
