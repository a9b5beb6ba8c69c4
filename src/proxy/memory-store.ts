import type { ProxyStore } from './types';

export interface MemoryStoreOptions {
  /**
   * Most remembered keys (event UUIDs) kept; the oldest go first beyond it, so memory stays
   * bounded whatever the traffic (~150 bytes per entry).
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

/**
 * The default `ProxyStore`: one process's memory, bounded, with no timers (expired entries are
 * dropped lazily), so it never keeps a process alive.
 *
 * @example
 * const proxy = createProxy({ ...options, store: createMemoryStore({ maxKeys: 200_000 }) });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): ProxyStore {
  const maxKeys = Math.max(1, options.maxKeys ?? 100_000);
  const maxCounters = Math.max(1, options.maxCounters ?? 50_000);
  const now = options.now ?? Date.now;
  // Maps keep insertion order, so the first entry is the oldest: eviction is O(1).
  const marks = new Map<string, number>();
  const counters = new Map<string, { value: number; expiresAt: number }>();

  function trim<V>(map: Map<string, V>, max: number, expiresAt: (value: V) => number): void {
    const t = now();
    for (const [key, value] of map) {
      if (map.size <= max && expiresAt(value) > t) break;
      map.delete(key);
    }
  }

  return {
    async increment(key, amount, ttlMs) {
      const t = now();
      let counter = counters.get(key);
      if (!counter || counter.expiresAt <= t) {
        counters.delete(key);
        counter = { value: 0, expiresAt: t + ttlMs };
        counters.set(key, counter);
        trim(counters, maxCounters, (c) => c.expiresAt);
      }
      counter.value += amount;
      return counter.value;
    },
    async has(keys) {
      const t = now();
      return keys.map((key) => {
        const expiresAt = marks.get(key);
        return expiresAt !== undefined && expiresAt > t;
      });
    },
    async add(keys, ttlMs) {
      const expiresAt = now() + ttlMs;
      for (const key of keys) {
        // Re-insert so a refreshed key moves to the young end.
        marks.delete(key);
        marks.set(key, expiresAt);
      }
      trim(marks, maxKeys, (e) => e);
    },
  };
}
