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

// Event keys. A claim writes each key once: `c:<owner>` (SET NX GET, Redis >= 7.0: taken if absent,
// and what was there, atomically), living as long as an accepted event is remembered. Whether the
// owner's claim still stands, was accepted or was given up is one marker key per claim (per hash
// tag on a cluster, so a script's keys share a slot): `c` while it stands (the claim's TTL: an
// owner that dies lets its events go), `a` once the upstream accepted them (the dedup window), gone
// once released. A commit or a release then writes one key, not one per event: the per-event
// write was a third of Redis's CPU per request.
//
// The scripts take a call's keys together: one command instead of one per event (in node-redis,
// ~0.3 ms against ~0.75 ms for 20 keys). On a Redis Cluster, one script per hash tag: the proxy
// tags its event keys with workspace + shard (pipeline/event-keys.ts).

// KEYS: the owner's marker, then the event keys; ARGV: `c:<owner>`, the claim's TTL, the keys' TTL.
// Answers per key: false (claimed now), 'a' (accepted: by the old per-key mark, or the owner's own
// claim committed), or the value another owner left, for the caller to look at its marker.
const CLAIM = `redis.call('SET', KEYS[1], 'c', 'NX', 'PX', ARGV[2])
local out = {}
for i = 2, #KEYS do
  local was = redis.call('SET', KEYS[i], ARGV[1], 'NX', 'GET', 'PX', ARGV[3])
  if was == ARGV[1] then was = redis.call('GET', KEYS[1]) == 'a' and 'a' end
  out[i - 1] = was
end
return out`;

// Keys that another owner held at CLAIM, n of them: KEYS are the owner's marker, the n keys, then
// the marker of each one's holder as seen; ARGV: `c:<owner>`, the claim's TTL, the keys' TTL, then
// the value seen on each key. A key still held by what was seen goes to this owner if that claim
// was given up or expired; a key that changed hands since is 'p' (the request looks again).
const TAKE_OVER = `local n = (#KEYS - 1) / 2
local out = {}
for i = 1, n do
  local key, now = KEYS[i + 1], redis.call('GET', KEYS[i + 1])
  local state = 'p'
  if not now or now == ARGV[1] then state = 'c'
  elseif now == 'a' then state = 'a'
  elseif now == ARGV[3 + i] then
    local holder = redis.call('GET', KEYS[n + 1 + i])
    if holder == 'a' then state = 'a' elseif not holder then state = 'c' end
  end
  if state == 'c' and now ~= ARGV[1] then redis.call('SET', key, ARGV[1], 'PX', ARGV[3]) end
  out[i] = state
end
redis.call('SET', KEYS[1], 'c', 'NX', 'PX', ARGV[2])
return out`;

// Markers accepted: ARGV 'a' and the dedup window.
const COMMIT = `for _, key in ipairs(KEYS) do redis.call('SET', key, ARGV[1], 'PX', ARGV[2]) end
return 0`;

// Compare-and-delete on markers: a claim standing ('c') goes; a commit stays.
const RELEASE = `for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0`;

const ACCEPTED = 'a';
const STANDING = 'c';
/** How long a commit waits for others to go with it (see `commit`). */
const COMMIT_BATCH_MS = 2;
const CLAIM_PREFIX = 'c:';

/**
 * A `ProxyStore` in Redis (>= 7.0), for several proxy instances (or edge isolates) serving one
 * workspace. One string per event key, `c:<owner>`, and one marker per claim saying whether it
 * stands, was accepted or was given up (see the scripts above); one integer per rate-limit
 * window. Commit or release a claim whole: its marker answers for all of its keys. A call's
 * event keys go in one script (the proxy tags them with the workspace, so on a Cluster they share
 * a slot). node-redis writes all commands issued in the same tick in one socket write, so the
 * calls a proxy request makes together cost one round trip.
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
  const shas = new Map([INCREMENT, CLAIM, TAKE_OVER, COMMIT, RELEASE].map((source) => [source, sha1(source)]));

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
   * `call(group, indexes)` over the full key names `keys`, answered in their order: once for all
   * of them, or on a cluster once per hash tag (a script's keys must share a slot), all sent in
   * the same tick (node-redis writes them to each node's socket together), so a call costs one
   * round trip per node whatever the number of groups.
   */
  function perTag(keys: readonly string[], call: (group: string[], indexes: readonly number[]) => Promise<unknown>): Promise<unknown[]> {
    if (!cluster) return call(keys as string[], Array.from(keys.keys())) as Promise<unknown[]>;
    const groups = new Map<string, number[]>();
    keys.forEach((key, i) => {
      const tag = hashTag(key);
      const group = groups.get(tag);
      if (group) group.push(i);
      else groups.set(tag, [i]);
    });
    const out: unknown[] = new Array(keys.length);
    return Promise.all(
      [...groups.values()].map((indexes) =>
        call(
          indexes.map((i) => keys[i]!),
          indexes,
        ).then((answer) => {
          if (Array.isArray(answer)) indexes.forEach((index, j) => (out[index] = (answer as unknown[])[j]));
        }),
      ),
    ).then(() => out);
  }

  /** The marker of `owner`'s claim on the full key `key`: one per claim, or per hash tag on a cluster. */
  const marker = cluster ? (key: string, owner: string) => `${prefix}{${hashTag(key)}}:o:${owner}` : (_key: string, owner: string) => `${prefix}o:${owner}`;
  /** The markers of `owner`'s claims on `keys` (the store's keys, not yet prefixed), each once. */
  const markers = (keys: readonly string[], owner: string) => (cluster ? [...new Set(keys.map((key) => marker(prefix + key, owner)))] : [marker('', owner)]);

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
  const commits = new Map<string, { markers: string[]; waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> }>();
  let commitTimer: ReturnType<typeof setTimeout> | undefined;

  function flushCommits(): Promise<void> {
    if (commitTimer !== undefined) clearTimeout(commitTimer);
    commitTimer = undefined;
    const batches = [...commits];
    commits.clear();
    return Promise.all(
      batches.map(([ttl, batch]) =>
        bounded('commit', () => perTag(batch.markers, (group) => script(COMMIT, group, [ACCEPTED, ttl]))).then(
          () => batch.waiters.forEach((waiter) => waiter.resolve()),
          (error: unknown) => batch.waiters.forEach((waiter) => waiter.reject(error)),
        ),
      ),
    ).then(() => {});
  }

  function sendRelease(keys: readonly string[], owner: string): Promise<unknown> {
    return perTag(markers(keys, owner), (group) => script(RELEASE, group, [STANDING]));
  }

  /**
   * The keys (full names) another owner held at CLAIM, `seen` their values then: each is taken
   * over where that claim was given up or expired, accepted where it was committed, else pending.
   */
  function takeOver(full: readonly string[], seen: readonly string[], mine: string, args: string[]): Promise<unknown[]> {
    const holder = (i: number) => marker(full[i]!, seen[i]!.startsWith(CLAIM_PREFIX) ? seen[i]!.slice(CLAIM_PREFIX.length) : seen[i]!);
    return perTag(full, (group, indexes) =>
      script(TAKE_OVER, [marker(group[0]!, mine), ...group, ...indexes.map(holder)], [CLAIM_PREFIX + mine, ...args, ...indexes.map((i) => seen[i]!)]),
    );
  }

  const store: ProxyStore & { [FLUSH]: () => Promise<void> } = {
    [FLUSH]: flushCommits,
    increment(key, amount, ttlMs) {
      if (!Number.isInteger(amount)) {
        return Promise.reject(new TypeError(`Redis store: increment amount must be an integer (got ${amount})`));
      }
      return bounded('increment', () => script(INCREMENT, [prefix + key], [String(amount), String(px(ttlMs))])).then(Number);
    },

    async claim(keys, owner, ttlMs, acceptedMs) {
      if (keys.length === 0) return [];
      const full = keys.map((key) => prefix + key);
      const mine = CLAIM_PREFIX + owner;
      // A key outlives its owner's marker: the claim, then the dedup window from the commit.
      const args = [String(px(ttlMs)), String(px(ttlMs + acceptedMs))];
      let sent = false;
      const send = <T>(what: string, work: () => Promise<T>) =>
        bounded(what, () => {
          sent = true;
          return work();
        });
      try {
        const previous = await send('claim', () => perTag(full, (group) => script(CLAIM, [marker(group[0]!, owner), ...group], [mine, ...args])));
        const states = previous.map((was): ClaimState => (was === null || was === undefined ? 'claimed' : was === ACCEPTED ? 'accepted' : 'pending'));
        // Keys another owner held (a re-send; usually none): a second look, at that owner's marker.
        const held = states.flatMap((state, i) => (state === 'pending' ? [i] : []));
        if (held.length > 0) {
          const answers = await send('claim', () =>
            takeOver(
              held.map((i) => full[i]!),
              held.map((i) => previous[i] as string),
              owner,
              args,
            ),
          );
          held.forEach((i, j) => (states[i] = answers[j] === 'c' ? 'claimed' : answers[j] === 'a' ? 'accepted' : 'pending'));
        }
        return states;
      } catch (error) {
        // A stalled Redis may still run these SETs later, and on a cluster the groups on healthy
        // nodes did run: give the claim up (its marker goes, behind the claims on each connection,
        // which Redis runs in order), or it would hold its events for the whole TTL.
        if (sent) sendRelease(keys, owner).catch(() => {});
        throw error;
      }
    },

    commit(keys, ttlMs, owner) {
      if (keys.length === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const ttl = String(px(ttlMs));
        let batch = commits.get(ttl);
        if (!batch) commits.set(ttl, (batch = { markers: [], waiters: [] }));
        batch.markers.push(...markers(keys, owner));
        batch.waiters.push({ resolve, reject });
        // flushCommits settles every waiter itself and never rejects.
        commitTimer ??= setTimeout(() => void flushCommits(), COMMIT_BATCH_MS);
      });
    },

    release(keys, owner) {
      if (keys.length === 0) return Promise.resolve();
      return bounded('release', () => sendRelease(keys, owner)).then(() => {});
    },

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
