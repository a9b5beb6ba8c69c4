// The proxy's shared state in Redis or a Redis Cluster, over a node-redis client the caller made
// and connected. Value imports: none from `redis` (only its shape, below), so this file runs with
// any client that has these methods.
import { createHash } from 'node:crypto';
import { createCallBatcher } from './call-batcher';
import { keySlot, slotTag } from './cluster-slot';
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
  /**
   * A cluster client's slot table (node-redis's `cluster.slots`): which master holds each slot,
   * as node-redis itself knows it (refreshed on MOVED and after a failover). The store groups a
   * call's keys by master with it; without it, by slot.
   */
  readonly slots?: ArrayLike<{ master?: object } | undefined>;
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
   * The client talks to a Redis Cluster: a call's keys are sent in one script per master that
   * holds some of them (node-redis's `slots` says which), the scripts in parallel, and the claims
   * of concurrent calls on one master merged into one script. Detected: a
   * node-redis cluster client (it has `getMasters`) is one.
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
// owner's claim still stands, was accepted or was given up is one marker key per claim (per master
// on a cluster, see below): `c` while it stands (the claim's TTL: an owner that dies lets its
// events go), `a` once the upstream accepted them (the dedup window), gone once released. A commit
// or a release then writes one key, not one per event: the per-event write was a third of Redis's
// CPU per request.
//
// The scripts take a call's keys together: one command instead of one per event (in node-redis,
// ~0.3 ms against ~0.75 ms for 20 keys).
//
// On a Redis Cluster, one script per master a call touches: event keys carry no hash tag (one
// workspace spreads over all 16,384 slots), the store groups a call's keys by the master
// node-redis says holds each slot, and each group goes as one script flagged
// `allow-cross-slot-keys` (Redis 7.0: a script may touch keys of any slot its node holds; the
// keys it declares must still share one). It declares one key, the owner's marker for that
// master, placed in the slot of the group's first key (`{<tag>}`, cluster-slot.ts), which routes
// it; the event keys go as arguments. Each key's value names its marker's tag,
// `c:<owner>/<tag>`, so another owner finds the marker. A key the node no longer holds (a slot
// moved since node-redis last looked) fails the script ("non local key", a redirection): the call
// fails as any store failure does, and the MOVED of the next call refreshes node-redis's table.
// The claims of concurrent requests on one master go as one script (call-batcher.ts), each
// request's group with its own marker; the script declares the first group's marker, for the
// route, and a failing script fails every request in it.

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

// Markers accepted: ARGV 'a' and the dedup window.
const COMMIT = `for _, key in ipairs(KEYS) do redis.call('SET', key, ARGV[1], 'PX', ARGV[2]) end
return 0`;

// Compare-and-delete on markers: a claim standing ('c') goes; a commit stays.
const RELEASE = `for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0`;

// The cluster's scripts (and the take-over, below, on one Redis too): KEYS[1] the owner's marker
// on this master, the event keys in ARGV. On one Redis the flag changes nothing.
const ACROSS_SLOTS = '#!lua flags=allow-cross-slot-keys\n';

// The claims of several requests on one master, each a group in ARGV: the owner's marker there,
// `c:<owner>/<tag>`, the claim's TTL, the keys' TTL, n, then its n event keys. KEYS[1] is the
// first group's marker, for the route only (a merged call's markers need not share a slot).
// Answers as CLAIM, every group's keys in turn.
const CLUSTER_CLAIM = `${ACROSS_SLOTS}local out, i = {}, 1
while i <= #ARGV do
  local marker, value, n = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 4])
  redis.call('SET', marker, 'c', 'NX', 'PX', ARGV[i + 2])
  for j = i + 5, i + 4 + n do
    local was = redis.call('SET', ARGV[j], value, 'NX', 'GET', 'PX', ARGV[i + 3])
    if was == value then was = redis.call('GET', marker) == 'a' and 'a' end
    out[#out + 1] = was
  end
  i = i + 5 + n
end
return out`;

// Keys that another owner held at a claim, n of them, on one Redis and on a cluster's master
// alike: KEYS[1] the owner's marker; ARGV: the owner's value (`c:<owner>`, or `c:<owner>/<tag>` on
// a cluster), the claim's TTL, the keys' TTL, n, then the n keys, the marker of each one's holder
// as seen, and the value seen on each. Per key: a key still held by what was seen goes to this
// owner ('c') if that claim was given up or expired; 'a' if accepted; a key that changed hands
// since is 'p' (the request looks again).
const TAKE_OVER = `${ACROSS_SLOTS}local n = tonumber(ARGV[4])
local out = {}
for i = 1, n do
  local key = ARGV[4 + i]
  local now = redis.call('GET', key)
  local state = 'p'
  if not now or now == ARGV[1] then state = 'c'
  elseif now == 'a' then state = 'a'
  elseif now == ARGV[4 + 2 * n + i] then
    local holder = redis.call('GET', ARGV[4 + n + i])
    if holder == 'a' then state = 'a' elseif not holder then state = 'c' end
  end
  if state == 'c' and now ~= ARGV[1] then redis.call('SET', key, ARGV[1], 'PX', ARGV[3]) end
  out[i] = state
end
redis.call('SET', KEYS[1], 'c', 'NX', 'PX', ARGV[2])
return out`;

// Markers of one master: KEYS[1] and ARGV[3..]; ARGV: 'a', the dedup window.
const CLUSTER_COMMIT = `${ACROSS_SLOTS}redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
for i = 3, #ARGV do redis.call('SET', ARGV[i], ARGV[1], 'PX', ARGV[2]) end
return 0`;

// Markers of one master: KEYS[1] and ARGV[2..]; ARGV[1]: 'c'.
const CLUSTER_RELEASE = `${ACROSS_SLOTS}if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
for i = 2, #ARGV do
  if redis.call('GET', ARGV[i]) == ARGV[1] then redis.call('DEL', ARGV[i]) end
end
return 0`;

// Nothing, routed by its one key: a MOVED for a key whose slot moved refreshes node-redis's table.
const LOCATE = 'return 0';

const ACCEPTED = 'a';
const STANDING = 'c';
/** How long a commit waits for others to go with it (see `commit`). */
const COMMIT_BATCH_MS = 2;
const CLAIM_PREFIX = 'c:';
/** Most event keys in one merged claim script (a request with more goes alone). */
const CLAIM_BATCH_KEYS = 500;

/**
 * A `ProxyStore` in Redis (>= 7.0), for several proxy instances (or edge isolates) serving one
 * workspace. One string per event key, `c:<owner>`, and one marker per claim saying whether it
 * stands, was accepted or was given up (see the scripts above); one integer per rate-limit
 * window. Commit or release a claim whole: its marker answers for all of its keys. A call's
 * event keys go in one script, on a Redis Cluster one script per master holding some of them.
 * node-redis writes all commands issued in the same tick in one socket write, so the calls a
 * proxy request makes together cost one round trip (per master).
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
  const shas = new Map([INCREMENT, CLAIM, TAKE_OVER, COMMIT, RELEASE, CLUSTER_CLAIM, CLUSTER_COMMIT, CLUSTER_RELEASE, LOCATE].map((source) => [source, sha1(source)]));

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
   * How the claims of one owner sit in Redis: its scripts, where its markers are. Every call of a
   * store call goes out in the same tick, so node-redis writes a node's share in one socket write.
   */
  const layout: Layout = cluster ? clusterLayout() : singleLayout();

  /** One Redis: a call is one script, the owner's claim one marker. */
  function singleLayout(): Layout {
    const marker = (owner: string) => `${prefix}o:${owner}`;
    return {
      claim: (full, owner, args) => script(CLAIM, [marker(owner), ...full], [CLAIM_PREFIX + owner, ...args]) as Promise<unknown[]>,
      takeOver: (full, seen, owner, args) =>
        script(
          TAKE_OVER,
          [marker(owner)],
          [
            CLAIM_PREFIX + owner,
            ...args,
            String(full.length),
            ...full,
            ...seen.map((value) => marker(value.startsWith(CLAIM_PREFIX) ? value.slice(CLAIM_PREFIX.length) : value)),
            ...seen,
          ],
        ) as Promise<unknown[]>,
      markers: (_keys, owner) => [marker(owner)],
      commit: (markers, ttl) => script(COMMIT, markers, [ACCEPTED, ttl]),
      release: (markers) => script(RELEASE, markers, [STANDING]),
    };
  }

  /** A Redis Cluster: one script per master a call touches, the owner's claim one marker per master. */
  function clusterLayout(): Layout {
    const table = () => client.slots;
    /** `keys` (full names) grouped by the master node-redis says holds their slot (by slot when it does not know). */
    function byMaster(keys: readonly string[]): Array<{ master: unknown; slot: number; indexes: number[] }> {
      const slots = table();
      const groups = new Map<unknown, { master: unknown; slot: number; indexes: number[] }>();
      for (let i = 0; i < keys.length; i++) {
        const slot = keySlot(keys[i]!);
        const master = slots?.[slot]?.master ?? slot;
        const group = groups.get(master);
        if (group) group.indexes.push(i);
        else groups.set(master, { master, slot, indexes: [i] });
      }
      return [...groups.values()];
    }
    /**
     * Each group's call, all in the same tick; the answers put back in the keys' order. A group
     * whose node no longer holds one of its keys' slots (moved since node-redis last looked) fails
     * with "non local key", which node-redis does not read as a redirection: a one-key script per
     * key of the group then meets the MOVED that makes node-redis refresh its slot table.
     */
    function perMaster(keys: readonly string[], call: (group: { master: unknown; slot: number; indexes: number[] }) => Promise<unknown>): Promise<unknown[]> {
      const out: unknown[] = new Array(keys.length);
      return Promise.all(
        byMaster(keys).map((group) =>
          call(group).then(
            (answer) => {
              if (Array.isArray(answer)) group.indexes.forEach((index, j) => (out[index] = (answer as unknown[])[j]));
            },
            (error: unknown) => {
              if (/non local key/.test(String((error as Error)?.message))) {
                for (const i of group.indexes) script(LOCATE, [keys[i]!], []).catch(() => {});
              }
              throw error;
            },
          ),
        ),
      ).then(() => out);
    }
    // The tag of each owner's marker on each master, from its claim to its commit or release: a
    // later claim of the same owner on that master reuses it, and the commit finds every marker
    // even if the slots moved meanwhile. Bounded: an owner never committed nor released is
    // forgotten first (its markers are then found from its keys, as where the slots are now).
    const owned = new Map<string, Map<unknown, string>>();
    const OWNED_MAX = 10_000;
    function tagOf(owner: string, master: unknown, slot: number): string {
      let tags = owned.get(owner);
      if (!tags) {
        if (owned.size >= OWNED_MAX) owned.delete(owned.keys().next().value!);
        owned.set(owner, (tags = new Map<unknown, string>()));
      }
      let tag = tags.get(master);
      if (tag === undefined) tags.set(master, (tag = slotTag(slot)));
      return tag;
    }
    const marker = (tag: string, owner: string) => `${prefix}{${tag}}:o:${owner}`;
    /** The marker a value `c:<owner>/<tag>` names; a value without a tag, a marker beside `key` (none there: the claim counts as gone). */
    function holderMarker(value: string, key: string): string {
      const holder = value.startsWith(CLAIM_PREFIX) ? value.slice(CLAIM_PREFIX.length) : value;
      const at = holder.lastIndexOf('/');
      return at < 0 ? marker(slotTag(keySlot(key)), holder) : marker(holder.slice(at + 1), holder.slice(0, at));
    }
    /** `markers` grouped by master, each group one script: `[first, ...rest]` as KEYS[1] and arguments. */
    function markerScripts(source: string, markers: readonly string[], args: string[]): Promise<unknown> {
      return perMaster(markers, ({ indexes }) => script(source, [markers[indexes[0]!]!], [...args, ...indexes.slice(1).map((i) => markers[i]!)]));
    }
    // The claims of concurrent requests on one master go as one script (see call-batcher.ts):
    // under load, 3 masters cost 3 scripts per batch rather than per request.
    const claims = createCallBatcher<ClaimGroup, unknown[]>(
      (_master, groups) =>
        script(
          CLUSTER_CLAIM,
          [groups[0]!.marker],
          groups.flatMap((group) => [group.marker, group.value, ...group.args, String(group.keys.length), ...group.keys]),
        ).then((flat) => {
          if (!Array.isArray(flat)) throw new Error(`Redis store: a claim answered ${typeof flat}, not one answer per key`);
          let at = 0;
          return groups.map((group) => (flat as unknown[]).slice(at, (at += group.keys.length)));
        }),
      (group) => group.keys.length,
      CLAIM_BATCH_KEYS,
    );
    return {
      claim: (full, owner, args, ticket) =>
        perMaster(full, ({ master, slot, indexes }) => {
          const tag = tagOf(owner, master, slot);
          return claims.add(master, { ticket, marker: marker(tag, owner), value: `${CLAIM_PREFIX}${owner}/${tag}`, args, keys: indexes.map((i) => full[i]!) });
        }),
      withdraw: (ticket, error) => claims.withdraw((group) => group.ticket === ticket, error),
      takeOver: (full, seen, owner, args) =>
        perMaster(full, ({ master, slot, indexes }) => {
          const tag = tagOf(owner, master, slot);
          return script(
            TAKE_OVER,
            [marker(tag, owner)],
            [
              `${CLAIM_PREFIX}${owner}/${tag}`,
              ...args,
              String(indexes.length),
              ...indexes.map((i) => full[i]!),
              ...indexes.map((i) => holderMarker(seen[i]!, full[i]!)),
              ...indexes.map((i) => seen[i]!),
            ],
          );
        }),
      markers(keys, owner) {
        const tags = owned.get(owner);
        owned.delete(owner);
        if (tags) return [...tags.values()].map((tag) => marker(tag, owner));
        return byMaster(keys.map((key) => prefix + key)).map(({ slot }) => marker(slotTag(slot), owner));
      },
      commit: (markers, ttl) => markerScripts(CLUSTER_COMMIT, markers, [ACCEPTED, ttl]),
      release: (markers) => markerScripts(CLUSTER_RELEASE, markers, [STANDING]),
    };
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

  // Commits wait up to COMMIT_BATCH_MS and go together: one script (per master on a cluster)
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
        bounded('commit', () => layout.commit(batch.markers, ttl)).then(
          () => batch.waiters.forEach((waiter) => waiter.resolve()),
          (error: unknown) => batch.waiters.forEach((waiter) => waiter.reject(error)),
        ),
      ),
    ).then(() => {});
  }

  function sendRelease(keys: readonly string[], owner: string): Promise<unknown> {
    return layout.release(layout.markers(keys, owner));
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
      // A key outlives its owner's marker: the claim, then the dedup window from the commit.
      const args = [String(px(ttlMs)), String(px(ttlMs + acceptedMs))];
      let sent = false;
      // Names this call's claims while they wait to be merged with others (the cluster's batches).
      const ticket = {};
      const send = <T>(what: string, work: () => Promise<T>) =>
        bounded(what, () => {
          sent = true;
          return work();
        });
      try {
        const previous = await send('claim', () => layout.claim(full, owner, args, ticket));
        const states = previous.map((was): ClaimState => (was === null || was === undefined ? 'claimed' : was === ACCEPTED ? 'accepted' : 'pending'));
        // Keys another owner held (a re-send; usually none): a second look, at that owner's marker.
        const held = states.flatMap((state, i) => (state === 'pending' ? [i] : []));
        if (held.length > 0) {
          const answers = await send('claim', () =>
            layout.takeOver(
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
        // which Redis runs in order), or it would hold its events for the whole TTL. What still
        // waits for a batch is taken out first: sent after the release, it would stand.
        layout.withdraw?.(ticket, error);
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
        batch.markers.push(...layout.markers(keys, owner));
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

/** The scripts of one layout (one Redis, or a cluster) over full key names. */
interface Layout {
  /** Per key: null (claimed now), 'a', or the value another owner left. `ticket` names the call for `withdraw`. */
  claim(full: readonly string[], owner: string, args: string[], ticket: object): Promise<unknown[]>;
  /** Drops the claims of the call `ticket` names that wait unsent for a batch, failing them with `error`. */
  withdraw?(ticket: object, error: unknown): void;
  /** Keys another owner held, `seen` their values: per key 'c', 'a' or 'p'. */
  takeOver(full: readonly string[], seen: readonly string[], owner: string, args: string[]): Promise<unknown[]>;
  /** The markers of `owner`'s claims on `keys` (the store's keys, not yet prefixed), each once; the owner's claim is then done. */
  markers(keys: readonly string[], owner: string): string[];
  commit(markers: readonly string[], ttl: string): Promise<unknown>;
  release(markers: readonly string[]): Promise<unknown>;
}

/** One request's claims on one master, as the merged claim script takes them. */
interface ClaimGroup {
  ticket: object;
  marker: string;
  /** `c:<owner>/<tag>`. */
  value: string;
  /** The claim's TTL and the keys' TTL. */
  args: string[];
  keys: string[];
}

// PX takes a positive integer; a window about to end still gets 1 ms.
function px(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs));
}

function sha1(source: string): string {
  return createHash('sha1').update(source).digest('hex');
}
