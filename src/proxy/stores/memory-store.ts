import type { ClaimState, ProxyStore } from '../types';

export interface MemoryStoreOptions {
  /**
   * Most event keys (claims and accepted UUIDs) kept; the oldest go first beyond it, so memory
   * stays bounded whatever the traffic (~150 bytes per entry).
   * @default 100000
   */
  maxKeys?: number;
  /**
   * Most rate-limit counters kept (one per client address and window); the oldest go first.
   * @default 50000
   */
  maxCounters?: number;
  /**
   * Clock, for tests.
   * @default Date.now
   */
  now?: () => number;
}

const ACCEPTED = 'a';

/**
 * The default `ProxyStore`: one process's memory, bounded, with no timers (expired entries are
 * dropped lazily, O(1) per key), so it never keeps a process alive. Right for one instance; several instances
 * need a shared store (`engage-sdk/proxy/redis`).
 *
 * @example
 * const proxy = createProxy({ ...options, store: createMemoryStore({ maxKeys: 200_000 }) });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): ProxyStore {
  const now = options.now ?? Date.now;
  // An event key holds `ACCEPTED` or the claiming owner's token, as the Redis store does.
  const marks = new Bounded<string>(Math.max(1, options.maxKeys ?? 100_000));
  const counters = new Bounded<number>(Math.max(1, options.maxCounters ?? 50_000));

  return {
    async increment(key, amount, ttlMs) {
      const t = now();
      let counter = counters.get(key);
      if (!counter || counter.expiresAt <= t) {
        counter = counters.add(key, 0, t + ttlMs, counter);
        counters.trim(t);
      }
      counter.value += amount;
      return counter.value;
    },
    async claim(keys, owner, ttlMs) {
      const t = now();
      const states = keys.map((key): ClaimState => {
        const entry = marks.get(key);
        if (entry && entry.expiresAt > t) return entry.value === ACCEPTED ? 'accepted' : entry.value === owner ? 'claimed' : 'pending';
        marks.add(key, owner, t + ttlMs, entry);
        return 'claimed';
      });
      marks.trim(t);
      return states;
    },
    async commit(keys, ttlMs) {
      const t = now();
      for (const key of keys) {
        const entry = marks.get(key);
        // A claim made moments ago is updated where it stands: its place in the eviction order
        // is as young as a re-insert would make it, without the delete and the new entry.
        if (entry) {
          entry.value = ACCEPTED;
          entry.expiresAt = t + ttlMs;
        } else marks.add(key, ACCEPTED, t + ttlMs);
      }
      marks.trim(t);
    },
    async release(keys, owner) {
      const t = now();
      for (const key of keys) {
        const entry = marks.get(key);
        if (entry && entry.expiresAt > t && entry.value === owner) marks.delete(key);
      }
    },
  };
}

interface Entry<V> {
  readonly key: string;
  value: V;
  expiresAt: number;
  /** Still the Map's entry for its key: trim() reads this instead of looking the key up again. */
  live: boolean;
}

/**
 * Entries by key, at most `max`, the oldest (or expired at the old end) dropped first. The order
 * is kept in a queue of its own, not by walking the Map from its old end: V8 leaves a deleted
 * entry there as a hole until its next rehash, and every walk skips the holes one by one (tens
 * of thousands in a full store, most of a request's CPU). A queued entry no longer in the Map
 * (deleted, or its key re-added) is stale (`live` false) and skipped without a lookup: in a full
 * store every lookup is a cache miss or two, and trimming met one per event.
 */
class Bounded<V> {
  private readonly map = new Map<string, Entry<V>>();
  // A passed slot is emptied at once, so an evicted entry (key string and all) is not kept alive
  // until the next compaction.
  private queue: Array<Entry<V> | undefined> = [];
  private head = 0;

  constructor(private readonly max: number) {}

  get(key: string): Entry<V> | undefined {
    return this.map.get(key);
  }

  /**
   * A new entry at the young end, replacing any for `key`. The eviction order is the queue's, not
   * the Map's, so the old entry is overwritten where it stands (one hash lookup, not two) and its
   * queue slot goes stale: trim() skips an entry the Map no longer holds.
   */
  add(key: string, value: V, expiresAt: number, previous?: Entry<V>): Entry<V> {
    // The caller looked the key up already: the entry it found (if any) is the one replaced.
    if (previous) previous.live = false;
    const entry = { key, value, expiresAt, live: true };
    this.map.set(key, entry);
    this.queue.push(entry);
    return entry;
  }

  delete(key: string): void {
    const entry = this.map.get(key);
    if (entry) entry.live = false;
    this.map.delete(key);
  }

  /** Drops entries from the old end while there are too many or they have expired. */
  trim(now: number): void {
    const { map, queue } = this;
    while (this.head < queue.length) {
      const entry = queue[this.head]!;
      const live = entry.live;
      if (live && map.size <= this.max && entry.expiresAt > now) break;
      if (live) {
        entry.live = false;
        map.delete(entry.key);
      }
      queue[this.head++] = undefined;
    }
    // Compact now and then (amortized O(1)), dropping stale entries left behind a long-lived one.
    if (this.head > 1024 && this.head * 2 > queue.length) {
      this.queue = queue.slice(this.head);
      this.head = 0;
    } else if (queue.length - this.head > 2 * this.max + 1024) {
      this.queue = queue.slice(this.head).filter((entry) => entry!.live);
      this.head = 0;
    }
  }
}
