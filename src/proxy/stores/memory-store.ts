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
 * dropped lazily), so it never keeps a process alive. Right for one instance; several instances
 * need a shared store (`engage-sdk/proxy/redis`).
 *
 * @example
 * const proxy = createProxy({ ...options, store: createMemoryStore({ maxKeys: 200_000 }) });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): ProxyStore {
  const maxKeys = Math.max(1, options.maxKeys ?? 100_000);
  const maxCounters = Math.max(1, options.maxCounters ?? 50_000);
  const now = options.now ?? Date.now;
  // Maps keep insertion order, so the first entry is the oldest: eviction is O(1).
  // An event key holds `ACCEPTED` or the claiming owner's token, as the Redis store does.
  const marks = new Map<string, { value: string; expiresAt: number }>();
  const counters = new Map<string, { value: number; expiresAt: number }>();

  function trim<V extends { expiresAt: number }>(map: Map<string, V>, max: number): void {
    const t = now();
    for (const [key, entry] of map) {
      if (map.size <= max && entry.expiresAt > t) break;
      map.delete(key);
    }
  }
  function live(key: string): string | undefined {
    const entry = marks.get(key);
    return entry && entry.expiresAt > now() ? entry.value : undefined;
  }
  function set(key: string, value: string, ttlMs: number): void {
    // Re-insert so a refreshed key moves to the young end.
    marks.delete(key);
    marks.set(key, { value, expiresAt: now() + ttlMs });
  }

  return {
    async increment(key, amount, ttlMs) {
      const t = now();
      let counter = counters.get(key);
      if (!counter || counter.expiresAt <= t) {
        counters.delete(key);
        counter = { value: 0, expiresAt: t + ttlMs };
        counters.set(key, counter);
        trim(counters, maxCounters);
      }
      counter.value += amount;
      return counter.value;
    },
    async claim(keys, owner, ttlMs) {
      const states = keys.map((key): ClaimState => {
        const value = live(key);
        if (value === ACCEPTED) return 'accepted';
        if (value !== undefined && value !== owner) return 'pending';
        if (value === undefined) set(key, owner, ttlMs);
        return 'claimed';
      });
      trim(marks, maxKeys);
      return states;
    },
    async commit(keys, ttlMs) {
      for (const key of keys) set(key, ACCEPTED, ttlMs);
      trim(marks, maxKeys);
    },
    async release(keys, owner) {
      for (const key of keys) if (live(key) === owner) marks.delete(key);
    },
  };
}
