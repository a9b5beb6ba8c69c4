// The proxy's shared state in Redis or a Redis Cluster, over a node-redis client the caller made
// and connected. Value imports: none from `redis` (only its shape, below), so this file runs with
// any client that has these methods.
import { createHash } from 'node:crypto';
import { hashTag } from './cluster-slot';
import { timeLimit } from './time-limit';
import type { ClaimState, ProxyStore } from '../types';

/**
 * The methods of a node-redis v5/v6 client this store calls: a single-node client
 * (`createClient()`) or a cluster client (`createCluster()`), connected. Either fits as is;
 * another client fits through a small adapter.
 */
export interface RedisStoreClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  ping?(): Promise<unknown>;
}

export interface RedisStoreOptions {
  /**
   * Prepended to every key, so one Redis can serve other applications (or several proxies of
   * other workspaces with their own prefix).
   * @default 'engage:'
   */
  prefix?: string;
  /**
   * Longest a store call may take. Past it the call rejects (the proxy then serves without limits
   * and dedup for that request), so a stalled Redis never holds a request.
   * @default 500
   */
  timeoutMs?: number;
  /**
   * The client talks to a Redis Cluster: a call's keys are sent in one script per hash tag (a
   * script's keys must share a slot), the groups in parallel. Detected: a node-redis cluster client
   * (it has `getMasters`) is one.
   * @default whether the client is a node-redis cluster client
   */
  cluster?: boolean;
}

// Fixed-window counter: INCRBY, and an expiry set only by the call that created the key
// (PEXPIRE NX, Redis >= 7.0), so later increments never stretch the window.
const INCREMENT = `local value = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2], 'NX')
return value`;

// The calls on event keys take all of a request's keys in one script: one command instead of one
// per event (in node-redis, ~0.3 ms against ~0.75 ms for 20 keys). On a Redis Cluster, one script
// per hash tag: the proxy tags its event keys with workspace + shard (pipeline/event-keys.ts).

// SET NX GET (Redis >= 7.0) per key: takes it if absent and returns what was there, atomically.
const CLAIM = `local out = {}
for i, key in ipairs(KEYS) do out[i] = redis.call('SET', key, ARGV[1], 'NX', 'GET', 'PX', ARGV[2]) end
return out`;

const COMMIT = `for _, key in ipairs(KEYS) do redis.call('SET', key, ARGV[1], 'PX', ARGV[2]) end
return 0`;

// Compare-and-delete: only the owner's own claim goes; an expired claim re-taken by another
// request, or a commit, stays.
const RELEASE = `for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0`;

const ACCEPTED = 'a';
/** How long a commit waits for others to go with it (see `commit`). */
const COMMIT_BATCH_MS = 2;
const CLAIM_PREFIX = 'c:';

/**
 * A `ProxyStore` in Redis (>= 7.0), for several proxy instances (or edge isolates) serving one
 * workspace. One string per event key, `c:<owner>` while a request forwards it and `a` once the
 * upstream accepted it; one integer per rate-limit window. A call's event keys go in one script
 * (the proxy tags them with the workspace, so on a Cluster they share a slot). node-redis writes
 * all commands issued in the same tick in one socket write, so the calls a proxy request makes
 * together cost one round trip.
 *
 * Make the client with `disableOfflineQueue: true` (commands fail at once while Redis is down,
 * instead of waiting and running late) and an `'error'` listener (without one an unreachable
 * Redis crashes the process); node-redis reconnects by itself. `connectRedisStore` does all that.
 *
 * @param client A connected node-redis client (`await createClient({ url }).connect()`).
 * @example
 * import { createClient } from 'redis';
 * import { createRedisStore } from 'engage-sdk/proxy/redis';
 * const client = await createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true })
 *   .on('error', (error) => console.error('redis:', error.message))
 *   .connect();
 * const proxy = createProxy({ ...options, store: createRedisStore(client) });
 */
export function createRedisStore(client: RedisStoreClient, options: RedisStoreOptions = {}): ProxyStore {
  const prefix = options.prefix ?? 'engage:';
  const timeoutMs = options.timeoutMs ?? 500;
  if (typeof prefix !== 'string') throw new TypeError('createRedisStore: prefix must be a string');
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(`createRedisStore: timeoutMs must be a positive number of milliseconds (got ${timeoutMs})`);
  }
  const cluster = options.cluster ?? typeof (client as { getMasters?: unknown }).getMasters === 'function';
  const shas = new Map([INCREMENT, CLAIM, COMMIT, RELEASE].map((source) => [source, sha1(source)]));

  // EVALSHA sends 40 bytes instead of the script; a node with an empty script cache (restarted, or
  // a replica just promoted) answers NOSCRIPT once, and EVAL, routed by the same first key to the
  // same node, caches it there.
  function script(source: string, keys: readonly string[], args: string[]): Promise<unknown> {
    const call = { keys: keys as string[], arguments: args };
    return client.evalSha(shas.get(source)!, call).catch((error: unknown) => {
      if (String((error as Error)?.message).startsWith('NOSCRIPT')) return client.eval(source, call);
      throw error;
    });
  }

  /**
   * One script over `keys` (prefixed here), answered in their order. On a cluster, one script per
   * hash tag, all sent in the same tick (node-redis writes them to each node's socket together),
   * so a call costs one round trip per node whatever the number of groups.
   */
  function scripted(source: string, keys: readonly string[], args: string[]): Promise<unknown[]> {
    const full = keys.map((key) => prefix + key);
    if (!cluster) return script(source, full, args) as Promise<unknown[]>;
    const groups = new Map<string, number[]>();
    full.forEach((key, i) => {
      const tag = hashTag(key);
      const group = groups.get(tag);
      if (group) group.push(i);
      else groups.set(tag, [i]);
    });
    if (groups.size === 1) return script(source, full, args) as Promise<unknown[]>;
    const out: unknown[] = new Array(full.length);
    return Promise.all(
      [...groups.values()].map((indexes) =>
        script(
          source,
          indexes.map((i) => full[i]!),
          args,
        ).then((answer) => {
          if (Array.isArray(answer)) indexes.forEach((index, j) => (out[index] = (answer as unknown[])[j]));
        }),
      ),
    ).then(() => out);
  }

  // Calls that timed out and whose commands Redis has not answered yet. While there are any,
  // Redis is stalled (or the client is holding commands offline): new calls fail at once instead
  // of each waiting `timeoutMs`. The late answers (or the connection's failure) reopen the way.
  let unanswered = 0;

  function bounded<T>(what: string, send: () => Promise<T>): Promise<T> {
    if (unanswered > 0) {
      return Promise.reject(new Error(`Redis store: ${what} skipped: Redis has not answered calls that timed out (stalled or unreachable)`));
    }
    return timeLimit(`Redis store: ${what}`, timeoutMs, send(), {
      why: ' (Redis stalled or unreachable)',
      onTimeout: () => unanswered++,
      onLateAnswer: () => unanswered--,
    });
  }

  // Commits wait up to COMMIT_BATCH_MS and go together: one script (per hash tag on a cluster)
  // for every request that committed meanwhile, instead of one per request. A commit runs after
  // the proxy's answer (waitUntil), so the wait costs no request any time; until it lands the
  // claims stand, and a concurrent re-send waits for it.
  const commits = new Map<string, { keys: string[]; waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> }>();
  let commitTimer: ReturnType<typeof setTimeout> | undefined;

  function flushCommits(): Promise<void> {
    if (commitTimer !== undefined) clearTimeout(commitTimer);
    commitTimer = undefined;
    const batches = [...commits];
    commits.clear();
    return Promise.all(
      batches.map(([ttl, batch]) =>
        bounded('commit', () => scripted(COMMIT, batch.keys, [ACCEPTED, ttl])).then(
          () => batch.waiters.forEach((waiter) => waiter.resolve()),
          (error: unknown) => batch.waiters.forEach((waiter) => waiter.reject(error)),
        ),
      ),
    ).then(() => {});
  }

  function sendRelease(keys: readonly string[], owner: string): Promise<unknown> {
    return scripted(RELEASE, keys, [CLAIM_PREFIX + owner]);
  }

  function release(keys: readonly string[], owner: string): Promise<void> {
    if (keys.length === 0) return Promise.resolve();
    return bounded('release', () => sendRelease(keys, owner)).then(() => {});
  }

  const store: ProxyStore & { [FLUSH]: () => Promise<void> } = {
    [FLUSH]: flushCommits,
    increment(key, amount, ttlMs) {
      if (!Number.isInteger(amount)) {
        return Promise.reject(new TypeError(`Redis store: increment amount must be an integer (got ${amount})`));
      }
      return bounded('increment', () => script(INCREMENT, [prefix + key], [String(amount), String(px(ttlMs))])).then(Number);
    },

    async claim(keys, owner, ttlMs) {
      if (keys.length === 0) return [];
      const mine = CLAIM_PREFIX + owner;
      let sent = false;
      let previous: unknown[];
      try {
        previous = await bounded('claim', () => {
          sent = true;
          return scripted(CLAIM, keys, [mine, String(px(ttlMs))]);
        });
      } catch (error) {
        // A stalled Redis may still run these SETs later, and on a cluster the groups on healthy
        // nodes did run: release them (compare-and-delete, behind the claims on each connection,
        // which Redis runs in order), or they would hold their events for the whole TTL.
        if (sent) sendRelease(keys, owner).catch(() => {});
        throw error;
      }
      return previous.map((value): ClaimState => {
        if (value === null || value === undefined) return 'claimed';
        // A claim's previous value: the owner's token or the accepted mark, both strings.
        const text = value as string;
        return text === mine ? 'claimed' : text === ACCEPTED ? 'accepted' : 'pending';
      });
    },

    commit(keys, ttlMs) {
      if (keys.length === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const ttl = String(px(ttlMs));
        let batch = commits.get(ttl);
        if (!batch) commits.set(ttl, (batch = { keys: [], waiters: [] }));
        for (const key of keys) batch.keys.push(key);
        batch.waiters.push({ resolve, reject });
        // flushCommits settles every waiter itself and never rejects.
        commitTimer ??= setTimeout(() => void flushCommits(), COMMIT_BATCH_MS);
      });
    },

    release,

    async ping() {
      // A cluster's PING reaches one node, any node: it says nothing of the shard that fails.
      // Readiness claims a key in every shard (probes.ts), which does.
      if (cluster || typeof client.ping !== 'function') return;
      await bounded('ping', () => client.ping!());
    },
  };
  return store;
}

/**
 * Sends the commits a store is holding for its batch at once (connectRedisStore's close() calls
 * it, so a shutdown loses no accepted mark).
 */
export function flushRedisStore(store: ProxyStore): Promise<void> {
  return (store as { [FLUSH]?: () => Promise<void> })[FLUSH]?.() ?? Promise.resolve();
}

const FLUSH = Symbol('engage-sdk.redis-store.flush');

// PX takes a positive integer; a window about to end still gets 1 ms.
function px(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs));
}

function sha1(source: string): string {
  return createHash('sha1').update(source).digest('hex');
}
