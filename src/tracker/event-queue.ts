import { createStore, promisifyRequest as promisify, type UseStore } from 'idb-keyval';
import { StorageError } from '../errors';
import type { StoredEvent } from './types';

/**
 * The durable queue, shared by every tab of the origin.
 *
 * Layout: database `engage-sdk-v1` (the version is in the name, so a future layout gets a fresh
 * database instead of a migration), store `queue`. Events are written in segments — one record
 * per batch of up to 250 events under the key `[namespace, recordedAt, firstUuid]` — so recording
 * 10,000 events in one task is one transaction and a handful of structured clones, not 10,000.
 *
 * Every storage call is guarded: IndexedDB missing, hanging on open (Safari), or failing at runtime
 * (quota, a connection the browser closed) degrades to memory and is reported once; what was
 * recorded is never lost with the page still open.
 *
 * Over idb-keyval's `createStore` (its own database and store, never the default store, whose
 * cached connection cannot be reset: idb-keyval #165), with a time limit on the first open and a
 * fresh store after a closed connection (below).
 */
export interface EventQueue {
  /** Queues an event now (in memory) and writes it durably: one transaction per task, however many events. */
  _push(event: StoredEvent): void;
  /** Every queued event of the namespace, oldest first. Waits for pending writes. */
  _read(): Promise<StoredEvent[]>;
  /** Removes these events, by UUID (only the caller that read them, under the flush lock, does this). */
  _remove(events: StoredEvent[]): Promise<void>;
  /**
   * Removes every event of the namespace queued before the call, and its loss report's counts.
   * A database this queue has not opened is opened only if it exists: opening would create one,
   * and a denial writes nothing about the visitor.
   */
  _clear(): Promise<void>;
  /** The record `key` (a string: no range of the queue's array keys reaches it), in a readonly transaction; undefined when absent or when IndexedDB failed. */
  _get<T>(key: string): Promise<T | undefined>;
  /**
   * Replaces the record `key` with `next(record)` in one readwrite transaction, so tabs and the
   * service worker never interleave; resolves false when IndexedDB failed (drop-counts.ts keeps
   * its record in memory then).
   */
  _change<T>(key: string, next: (value: T | undefined) => T): Promise<boolean>;
}

const SEGMENT_SIZE = 250;
/** The database's name (its layout's version is in it). */
const DATABASE = 'engage-sdk-v1';

// Without `databases()` (Firefox before 126) the database is assumed to exist; without IndexedDB
// (SSR), not (the check throws).
const exists = async () => !('databases' in indexedDB) || (await indexedDB.databases()).some((db) => db.name === DATABASE);

type Key = [string, number, string];

/**
 * @param report where storage failures go (once)
 * @param stored told of the events each write put in IndexedDB
 */
export function createEventQueue(namespace: string, timeoutMs: number, report: (error: StorageError) => void, stored: (events: StoredEvent[]) => void): EventQueue {
  // Events this tab recorded that IndexedDB does not hold yet (pending or failed writes). A Set of
  // objects, not a Map by UUID: hashing a 36-character key per event doubled the cost of `shown()`.
  const memory = new Set<StoredEvent>();
  // The segment holding each event written or read, so `remove` rewrites only those segments.
  const segmentOf = new Map<string, Key>();
  const range = () => IDBKeyRange.bound([namespace], [namespace, []]);
  let pending: StoredEvent[] = [];
  let writing: Promise<void> = Promise.resolve();
  let db: Promise<UseStore> | undefined;
  let opened = false;
  let failed = false;
  let reported = false;

  /**
   * The store. Its first use is bounded by `timeoutMs`: Safari can leave `open` pending forever
   * (WebKit 226547), and a hang must degrade to memory, not stall delivery. (The timer is not
   * cleared: once the race has settled, its reject does nothing.) Where IndexedDB is missing (SSR,
   * some privacy modes) `indexedDB.open` throws, which rejects the race.
   */
  const open = (): Promise<UseStore> => {
    const store = createStore(DATABASE, 'queue');
    return Promise.race([
      store('readonly', () => store),
      new Promise<never>((_, reject) => setTimeout(reject, timeoutMs, new Error(`open timed out after ${timeoutMs} ms`))),
    ]);
  };

  /**
   * Runs one transaction. A connection the browser closed (idb-keyval #165, #175: Safari does so
   * in the background) gets a fresh one and one retry. Failing to open, or failing twice, puts
   * this page on memory for good; any other failure (quota) keeps its events in memory.
   */
  async function tx<T>(mode: IDBTransactionMode, body: (s: IDBObjectStore) => Promise<T>): Promise<T | undefined> {
    for (let attempt = 0; !failed; attempt++) {
      try {
        const store = await (db ??= open());
        opened = true;
        return await store(mode, body);
      } catch (cause) {
        db = undefined;
        const closed = (cause as DOMException)?.name === 'InvalidStateError';
        if (closed && !attempt) continue;
        if (!opened || closed) failed = true;
        if (!reported) report(new StorageError('IndexedDB failed; events are kept in memory', { cause }));
        reported = true;
        return undefined;
      }
    }
    return undefined;
  }

  const done = (s: IDBObjectStore) => promisify(s.transaction).then(() => true);

  function write(): void {
    // Events delivered from memory before their write ran are not written at all.
    // Each segment's key → its events.
    const segments = new Map<Key, StoredEvent[]>();
    const events = pending.filter((event) => memory.has(event));
    pending = [];
    for (let i = 0; i < events.length; i += SEGMENT_SIZE) {
      const segment = events.slice(i, i + SEGMENT_SIZE);
      segments.set([namespace, segment[0]!.recordedAt, segment[0]!.uuid], segment);
    }
    writing = writing.then(async () => {
      if (!segments.size) return;
      // One put per request callback, not all at once: each put clones its segment on the main
      // thread, so 10,000 events cloned in the recording task would add ~20 ms to it.
      const written = await tx('readwrite', async (s) => {
        for (const [key, value] of segments) await promisify(s.put(value, key));
        return done(s);
      });
      if (!written) return;
      stored(events);
      const deliveredMeanwhile: StoredEvent[] = [];
      for (const [key, segment] of segments) {
        for (const event of segment) {
          segmentOf.set(event.uuid, key);
          if (!memory.delete(event)) deliveredMeanwhile.push(event);
        }
      }
      if (deliveredMeanwhile.length) await remove(deliveredMeanwhile);
    });
  }

  async function remove(events: StoredEvent[]): Promise<void> {
    const gone = new Set(events.map((event) => event.uuid));
    const touched = new Map<string, Key>();
    for (const event of memory) if (gone.has(event.uuid)) memory.delete(event);
    for (const uuid of gone) {
      const key = segmentOf.get(uuid);
      if (key) touched.set(key.join(), key);
      segmentOf.delete(uuid);
    }
    if (!touched.size) return;
    await tx('readwrite', async (s) => {
      for (const key of touched.values()) {
        const left = ((await promisify(s.get(key))) as StoredEvent[] | undefined)?.filter((e) => !gone.has(e.uuid));
        if (left?.length) s.put(left, key);
        else s.delete(key);
      }
      return done(s);
    });
  }

  return {
    _get: (key) => tx('readonly', (s) => promisify(s.get(key))),

    _change: async (key, next) =>
      !!(await tx('readwrite', async (s) => {
        s.put(next((await promisify(s.get(key))) as Parameters<typeof next>[0]), key);
        return done(s);
      })),

    _push(event) {
      memory.add(event);
      if (!pending.length) queueMicrotask(write);
      pending.push(event);
    },

    async _read() {
      await writing;
      const all = new Map<string, StoredEvent>();
      segmentOf.clear();
      // A cursor, one segment per request callback: `getAll` deserialised every event in one
      // callback, a 60-90 ms task right after a burst of 10,000.
      await tx('readonly', (s) => {
        const cursor = s.openCursor(range());
        cursor.onsuccess = () => {
          const at = cursor.result;
          if (!at) return;
          for (const event of at.value as StoredEvent[]) {
            all.set(event.uuid, event);
            segmentOf.set(event.uuid, at.key as Key);
          }
          at.continue();
        };
        return done(s);
      });
      memory.forEach((event) => all.set(event.uuid, event));
      return [...all.values()].sort((a, b) => a.recordedAt - b.recordedAt);
    },

    _remove: remove,

    _clear() {
      memory.clear();
      pending = [];
      // Chained like a write, in the call's order: what a grant after the denial writes is never
      // removed by the denial's clear (an existence check and a connection later, it could run
      // after that write's transaction).
      return (writing = writing.then(async () => {
        if (opened || (await exists().catch(() => false)))
          // The loss report's counts too (drop-counts.ts): a denial sends nothing more.
          await tx('readwrite', (s) => (s.delete(range()), s.delete(`drops:${namespace}`), done(s)));
      }));
    },
  };
}
