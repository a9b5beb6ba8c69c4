// The proxy's store on Cloudflare Workers: every isolate calls the same EngageStore objects, so
// the UUID memory, the claims and the limits are shared however many isolates serve the site.
import type { StoreCall } from './engage-store-object';
import { timeLimit } from './time-limit';
import type { ClaimState, ProxyStore } from '../types';

/**
 * The parts of a Durable Object namespace binding (`env.ENGAGE_STORE`) the store uses; the
 * binding from `@cloudflare/workers-types` fits as is.
 */
export interface EngageStoreNamespace {
  idFromName(name: string): unknown;
  // `any`: the binding's own id type, whichever types package describes it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  get(id: any): { fetch(input: string, init: { method: string; body: string }): Promise<{ ok: boolean; status: number; json(): Promise<unknown> }> };
}

export interface DurableObjectStoreOptions {
  /**
   * Objects the keys spread over, by a hash of each key (an event's UUID, a rate-limit window):
   * one object is one thread, with a soft limit of 1,000 calls a second on Cloudflare. A call on a
   * request's k events costs min(k, shards) subrequests, made in parallel. Changing it moves
   * keys: deploy a new value when a day-long UUID memory can start over (`name` too).
   * @default 4
   */
  shards?: number;
  /**
   * Objects are named `<name>:<shard>`, so several proxies (workspaces) can share one binding.
   * @default 'engage'
   */
  name?: string;
  /**
   * Longest a store call may take. Past it the call rejects (the proxy then serves that request
   * without limits and UUID memory, and logs it), so an object that is unreachable or late never
   * holds an event.
   * @default 1000
   */
  timeoutMs?: number;
}

/**
 * A `ProxyStore` over `EngageStore` Durable Objects, for a proxy on Cloudflare Workers, where a
 * reload, a second tab or a retry lands on another isolate as a rule. Each call is one subrequest
 * per object its keys live in, with all of that object's keys in it.
 *
 * @param namespace The Durable Object namespace binding of the `EngageStore` class.
 * @example
 * import { createProxy } from 'engage-sdk/proxy';
 * import { createDurableObjectStore } from 'engage-sdk/proxy/cloudflare';
 * export { EngageStore } from 'engage-sdk/proxy/cloudflare';
 * const proxy = createProxy({ ...options, store: createDurableObjectStore(env.ENGAGE_STORE) });
 */
export function createDurableObjectStore(namespace: EngageStoreNamespace, options: DurableObjectStoreOptions = {}): ProxyStore {
  const shards = options.shards ?? 4;
  const name = options.name ?? 'engage';
  const timeoutMs = options.timeoutMs ?? 1000;
  if (!namespace || typeof namespace.idFromName !== 'function' || typeof namespace.get !== 'function') {
    throw new TypeError('createDurableObjectStore: namespace must be a Durable Object namespace binding (env.ENGAGE_STORE)');
  }
  if (!Number.isInteger(shards) || shards < 1) throw new RangeError(`createDurableObjectStore: shards must be a positive integer (got ${shards})`);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(`createDurableObjectStore: timeoutMs must be a positive number of milliseconds (got ${timeoutMs})`);
  }
  // Ids are plain values, made once per isolate; stubs are made per call (cheap, and never
  // carried from one request's context into another's).
  const ids: unknown[] = [];

  function send(shard: number, call: StoreCall): Promise<unknown> {
    ids[shard] ??= namespace.idFromName(`${name}:${shard}`);
    const answer = namespace
      .get(ids[shard])
      .fetch('https://engage-store/', { method: 'POST', body: JSON.stringify(call) })
      .then(async (response) => {
        if (response.ok) return response.json();
        // The object may say why (EngageStore without SQLite storage): carried as the error's hint.
        const body = (await response.json().catch(() => null)) as { error?: unknown; hint?: unknown } | null;
        const error = new Error(`answered ${response.status}${typeof body?.error === 'string' ? `: ${body.error}` : ''}`);
        throw typeof body?.hint === 'string' ? Object.assign(error, { hint: body.hint }) : error;
      });
    return timeLimit(`Durable Object store: ${call.op}`, timeoutMs, answer);
  }

  /** Sends each object its own keys, in parallel; answers come back in the order of `keys`. */
  async function spread(keys: readonly string[], call: (keys: string[]) => StoreCall): Promise<unknown[]> {
    const groups = new Map<number, number[]>();
    keys.forEach((key, i) => {
      const shard = shardOf(key, shards);
      const group = groups.get(shard);
      if (group) group.push(i);
      else groups.set(shard, [i]);
    });
    const out: unknown[] = new Array(keys.length);
    await Promise.all(
      [...groups].map(async ([shard, indexes]) => {
        const answer: unknown = await send(shard, call(indexes.map((i) => keys[i]!)));
        if (Array.isArray(answer)) indexes.forEach((index, j) => (out[index] = (answer as unknown[])[j]));
      }),
    );
    return out;
  }

  return {
    async increment(key, amount, ttlMs) {
      return Number(await send(shardOf(key, shards), { op: 'increment', key, amount, ttlMs }));
    },
    async claim(keys, owner, ttlMs) {
      try {
        return (await spread(keys, (part) => ({ op: 'claim', keys: part, owner, ttlMs }))) as ClaimState[];
      } catch (error) {
        // A late object may still take these claims, which nobody would then release: send the
        // release behind them (an object receives one isolate's calls in the order sent).
        spread(keys, (part) => ({ op: 'release', keys: part, owner })).catch(() => {});
        throw error;
      }
    },
    async commit(keys, ttlMs) {
      await spread(keys, (part) => ({ op: 'commit', keys: part, ttlMs }));
    },
    async release(keys, owner) {
      await spread(keys, (part) => ({ op: 'release', keys: part, owner }));
    },
    async ping() {
      await Promise.all(Array.from({ length: shards }, (_, shard) => send(shard, { op: 'ping' })));
    },
  };
}

/** FNV-1a: a fast, even spread of UUIDs and counter keys; the same key always finds one object. */
function shardOf(key: string, shards: number): number {
  if (shards === 1) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shards;
}
