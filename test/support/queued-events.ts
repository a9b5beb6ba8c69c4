// How many events a page's tracker still holds in IndexedDB: run in the page (`page.evaluate(queuedEvents)`
// with any driver), so it is self-contained and names nothing of this module.

/** Events in the page's durable queue ('engage-sdk-v1' / 'queue', every namespace's segments). */
export const queuedEvents = (): Promise<number> =>
  new Promise<number>((resolve, reject) => {
    const open = indexedDB.open('engage-sdk-v1');
    open.onerror = () => reject(new Error(`IndexedDB: ${open.error?.message}`));
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('queue')) return resolve((db.close(), 0));
      // Segments only (array keys, [namespace, recordedAt, uuid]): the loss report's record is a string key.
      const all = db.transaction('queue').objectStore('queue').getAll(IDBKeyRange.lowerBound([]));
      all.onsuccess = () => resolve((db.close(), (all.result as unknown[][]).reduce((sum, segment) => sum + segment.length, 0)));
    };
  });
