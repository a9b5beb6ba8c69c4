import { type EngageError, ValidationError } from '../errors';
import { noop } from './console';
import { later } from './later';
import { SYNC_TAG, type SyncConfigMessage } from './sync-config';
import type { TrackerOptions } from './types';

/** Background Sync's part of a registration: not in TypeScript's DOM types (WICG, Chromium only). */
interface SyncRegistration {
  sync: { register(tag: string): Promise<void> };
}

// Declared only: read with `typeof`, which is safe where it does not exist.
declare const SyncManager: unknown;

/**
 * Delivery without this page: registers `options.serviceWorker` (dist/engage-sw.js, or the site's
 * own worker that imports it) and returns `wake`, which tells the worker this tracker's endpoint
 * and options and asks the browser for a one-off sync (`engage-sdk:<namespace>`). The browser
 * fires it as soon as it is online, with or without a page of the site open, and again with
 * backoff while the worker's delivery fails. Where Background Sync is missing (Firefox, Safari) or
 * the option is not given, nothing is registered or asked, and `undefined` is returned.
 *
 * The worker needs no scope over the page: the sync is registered on the registration this call
 * gets back, whatever its scope. A registration that fails (404, a script on another origin, a
 * sandboxed frame) is reported as a `ValidationError` of `serviceWorker`.
 *
 * @param url the proxy's events URL, as the page's delivery uses it
 */
export function backgroundSync(options: TrackerOptions, url: string, namespace: string, report: (error: EngageError) => void): (() => void) | undefined {
  const script = options.serviceWorker;
  if (!script || typeof SyncManager !== 'function') return undefined;
  const tag = SYNC_TAG + namespace;
  // In a `then`: `navigator.serviceWorker` throws in an opaque origin, and nothing throws into the
  // page. In a later task: registering is start-up work the page's current task need not wait for.
  const registration = new Promise<void>(later).then(() => navigator.serviceWorker.register(script) as Promise<ServiceWorkerRegistration & SyncRegistration>);
  registration.catch((cause) => report(new ValidationError('serviceWorker', String(cause))));
  // Both fail while the worker is still installing (no active worker yet): the next wake tries again.
  return () =>
    void registration
      .then((registered) => {
        registered.active!.postMessage([tag, url, JSON.stringify(options)] satisfies SyncConfigMessage);
        return registered.sync.register(tag);
      })
      .catch(noop);
}
