/**
 * The one-off sync's tag is this and the namespace (`engage-sdk:default`); the worker delivers the
 * namespace its tag names. The message that tells the worker how starts with the same tag.
 */
export const SYNC_TAG = 'engage-sdk:';

/**
 * What a page tells the delivery service worker before it asks for a sync: the tag, the URL of
 * the proxy's events route as the page uses it (the worker resolves it against the page's URL),
 * and the tracker's options as JSON (which drops `fetch` and `onError`; the worker drops `customerId`). The worker keeps the latest per namespace in
 * IndexedDB, for syncs that fire long after the page is gone.
 */
export type SyncConfigMessage = [tag: string, url: string, options: string];
