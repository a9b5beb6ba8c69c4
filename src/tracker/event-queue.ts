import { createStore, promisifyRequest, type UseStore } from 'idb-keyval';
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
 */
export interface EventQueue {
  /** Queues an event now (in memory) and writes it durably: one transaction per task, however many events. */
  push(event: StoredEvent): void;
  /** Every queued event of the namespace, oldest first. Waits for pending writes. */
  read(): Promise<StoredEvent[]>;
  /** Removes events by UUID (only the caller that read them, under the flush lock, does this). */
  remove(uuids: string[]): Promise<void>;
  /** Events not yet safely in IndexedDB: what a closing page must send itself. */
  unsaved(): StoredEvent[];
  /** Removes every event of the namespace. */
  clear(): Promise<void>;
  /** Claims (or renews) the cross-tab flush lease; false while another live tab holds it. */
  lease(owner: string, ttlMs: number, release?: boolean): Promise<boolean>;
  /** False once storage fell back to memory. */
  readonly durable: boolean;
}

const SEGMENT_SIZE = 250;

type Key = [string, number, string];

export function createEventQueue(namespace: string, timeoutMs: number, report: (error: StorageError) => void): EventQueue {
  // Events this tab recorded that IndexedDB does not hold yet (pending or failed writes).
  const memory = new Map<string, StoredEvent>();
  // Where each event read from IndexedDB lives, so `remove` rewrites only those segments.
  const segmentOf = new Map<string, string>();
  const segmentKeys = new Map<string, Key>();
  let pending: StoredEvent[] = [];
  let writing: Promise<void> = Promise.resolve();
  let store: UseStore | undefined;
  let opened = false;
  let failed = typeof indexedDB === 'undefined';
  let reported = false;

  const fail = (cause: unknown, what: string) => {
    if (!reported) {
      reported = true;
      report(new StorageError(`IndexedDB ${what} failed; events are kept in memory`, { cause }));
    }
  };
  if (failed) fail(undefined, 'is unavailable:');

  /**
   * The first use waits for the database to open, bounded by `timeoutMs`: Safari can leave `open`
   * pending forever (WebKit 226547), and a hang must degrade to memory, not stall delivery.
   */
  function openStore(): UseStore {
    const raw = createStore('engage-sdk-v1', 'queue');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ready = Promise.race([
      raw('readonly', () => (opened = true)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`open timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
    return (mode, body) => ready.then(() => raw(mode, body));
  }

  /**
   * Runs one transaction. A connection the browser closed (idb-keyval #165, #175: Safari does so
   * in the background) gets a fresh store and one retry. Failing to open, or failing twice, puts
   * this page on memory for good; any other failure (quota) keeps its events in memory.
   */
  async function tx<T>(mode: IDBTransactionMode, body: (s: IDBObjectStore) => Promise<T>, what: string): Promise<T | undefined> {
    for (let attempt = 0; !failed; attempt++) {
      try {
        return await (store ??= openStore())(mode, body);
      } catch (error) {
        store = undefined;
        const closed = (error as DOMException)?.name === 'InvalidStateError';
        if (closed && attempt === 0) continue;
        if (!opened || closed) failed = true;
        fail(error, what);
      }
      break;
    }
    return undefined;
  }

  function write(): Promise<void> {
    // Events delivered from memory before their write ran are not written at all.
    const events = pending.filter((event) => memory.has(event.uuid));
    pending = [];
    writing = writing.then(async () => {
      if (!events.length) return;
      const segments: Array<[Key, StoredEvent[]]> = [];
      for (let i = 0; i < events.length; i += SEGMENT_SIZE) {
        const segment = events.slice(i, i + SEGMENT_SIZE);
        segments.push([[namespace, segment[0]!.recordedAt, segment[0]!.uuid], segment]);
      }
      const ok = await tx(
        'readwrite',
        (s) => {
          for (const [key, segment] of segments) s.put(segment, key);
          return promisifyRequest(s.transaction).then(() => true);
        },
        'write',
      );
      if (!ok) return;
      const deliveredMeanwhile: string[] = [];
      for (const [key, segment] of segments) {
        const id = key.join(' ');
        segmentKeys.set(id, key);
        for (const event of segment) {
          segmentOf.set(event.uuid, id);
          if (!memory.delete(event.uuid)) deliveredMeanwhile.push(event.uuid);
        }
      }
      if (deliveredMeanwhile.length) await remove(deliveredMeanwhile);
    });
    return writing;
  }

  async function remove(uuids: string[]): Promise<void> {
    const gone = new Set(uuids);
    const touched = new Set<string>();
    for (const uuid of uuids) {
      memory.delete(uuid);
      const id = segmentOf.get(uuid);
      if (id) touched.add(id);
      segmentOf.delete(uuid);
    }
    if (!touched.size) return;
    await tx(
      'readwrite',
      async (s) => {
        await Promise.all(
          [...touched].map(async (id) => {
            const key = segmentKeys.get(id)!;
            const segment = (await promisifyRequest(s.get(key))) as StoredEvent[] | undefined;
            const left = segment?.filter((event) => !gone.has(event.uuid));
            if (left?.length) s.put(left, key);
            else s.delete(key);
          }),
        );
        return promisifyRequest(s.transaction);
      },
      'delete',
    );
  }

  const range = () => IDBKeyRange.bound([namespace], [namespace, []]);

  return {
    get durable() {
      return !failed;
    },

    push(event) {
      memory.set(event.uuid, event);
      if (failed) return;
      if (!pending.length) queueMicrotask(write);
      pending.push(event);
    },

    async read() {
      await writing;
      const stored = await tx(
        'readonly',
        async (s) => {
          const [keys, values] = await Promise.all([
            promisifyRequest(s.getAllKeys(range())),
            promisifyRequest(s.getAll(range())),
          ]);
          return { keys: keys as Key[], values: values as StoredEvent[][] };
        },
        'read',
      );
      segmentOf.clear();
      segmentKeys.clear();
      const all = new Map<string, StoredEvent>();
      stored?.keys.forEach((key, i) => {
        const id = key.join(' ');
        segmentKeys.set(id, key);
        for (const event of stored.values[i]!) {
          all.set(event.uuid, event);
          segmentOf.set(event.uuid, id);
        }
      });
      memory.forEach((event) => all.set(event.uuid, event));
      return [...all.values()].sort((a, b) => a.recordedAt - b.recordedAt);
    },

    remove,

    unsaved: () => [...memory.values()],

    async clear() {
      memory.clear();
      pending = [];
      await writing;
      await tx('readwrite', (s) => (s.delete(range()), promisifyRequest(s.transaction)), 'clear');
    },

    async lease(owner, ttlMs, release) {
      if (failed) return true;
      const key = `lease ${namespace}`;
      const now = Date.now();
      const granted = await tx(
        'readwrite',
        async (s) => {
          const held = (await promisifyRequest(s.get(key))) as { owner: string; until: number } | undefined;
          if (held && held.owner !== owner && held.until > now) return false;
          if (release) s.delete(key);
          else s.put({ owner, until: now + ttlMs }, key);
          return true;
        },
        'lease',
      );
      // Storage failed mid-way: this tab is on its own now, and nothing shared is left to guard.
      return granted ?? true;
    },
  };
}
