// The store keys of experience events, laid out for a Redis Cluster: every key names a hash tag
// (the part in braces decides the slot), so the keys a store call takes together can share a slot,
// and one workspace's events spread over every master instead of all landing on one.
import { keySlot } from '../stores/cluster-slot';

/**
 * Shards of one workspace's events. A request's events are grouped by shard, one store call per
 * group (a 20-event request touches ~12 of 16), and each shard's tag sits in its own sixteenth of
 * the 16,384 slots, so a cluster of up to 8 masters each holding a contiguous range gets at
 * least one shard, and 3 masters get 5 or 6 each (31–38 % of the events).
 */
export const EVENT_SHARDS = 16;
const SLOTS = 16_384;

/**
 * `(uuid) => key`, made once per workspace: `ev:{<tag>}:<uuid>`, for a UUID already lowercase (the
 * caller compares UUIDs lowercase and lowers each once). The shard
 * is taken from the UUID's first hex digits (a UUID v4 is random there: an even spread); its tag
 * is `<workspace>:<shard>`, or `<workspace>:<shard>.<n>` with the first `n` that puts it in the
 * shard's own sixteenth of the slots, so the spread over the masters does not depend on how 16
 * tags happen to hash.
 */
export function eventKeyer(workspaceId: string, shards = EVENT_SHARDS): (uuid: string) => string {
  const prefixes = Array.from({ length: shards }, (_, shard) => `ev:{${shardTag(workspaceId, shard, shards)}}:`);
  return (uuid) => prefixes[shardOf(uuid, shards)]! + uuid;
}

/**
 * One key in each of the workspace's shards, named by `id` in place of a UUID: what readiness
 * claims and releases to learn whether every shard (on a cluster, every master holding one) can
 * take a claim.
 */
export function shardKeys(workspaceId: string, id: string, shards = EVENT_SHARDS): string[] {
  return Array.from({ length: shards }, (_, shard) => `ev:{${shardTag(workspaceId, shard, shards)}}:${id}`);
}

/** The hash tag of one shard (see `eventKeyer`). */
export function shardTag(workspaceId: string, shard: number, shards = EVENT_SHARDS): string {
  const from = Math.floor((shard * SLOTS) / shards);
  const to = Math.floor(((shard + 1) * SLOTS) / shards);
  for (let n = 0; ; n++) {
    const tag = n === 0 ? `${workspaceId}:${shard}` : `${workspaceId}:${shard}.${n}`;
    const slot = keySlot(tag);
    if (slot >= from && slot < to) return tag;
  }
}

function shardOf(uuid: string, shards: number): number {
  const head = parseInt(uuid.slice(0, 4), 16);
  if (Number.isInteger(head)) return head % shards;
  // Not hex (the validation asks for a UUID v4, but a store key must never fail): FNV-1a.
  let hash = 0x811c9dc5;
  for (let i = 0; i < uuid.length; i++) hash = Math.imul(hash ^ uuid.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shards;
}
