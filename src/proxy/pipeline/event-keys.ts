// The store keys of experience events. No hash tag: on a Redis Cluster each key's slot is the CRC16
// of the whole key, so one workspace's events spread over all 16,384 slots, and so over every
// master however many there are. The Redis store sends a call's keys as one script per master.
import { keySlot, SLOTS } from '../stores/cluster-slot';

/**
 * `(uuid) => key`, made once per workspace: `ev:<workspace>:<uuid>`, for a UUID already lowercase
 * (the caller compares UUIDs lowercase and lowers each once).
 */
export function eventKeyer(workspaceId: string): (uuid: string) => string {
  const prefix = `ev:${workspaceId}:`;
  return (uuid) => prefix + uuid;
}

/**
 * Ranges of slots readiness probes, one key each: a master holding a run of at least 16,384 /
 * 256 = 64 consecutive slots holds a probe key (every master of a cluster made by `redis-cli
 * --cluster create` or a managed service holds thousands).
 */
export const PROBE_RANGES = 256;

/**
 * Keys named by `id` in place of a UUID, one in each of `PROBE_RANGES` equal ranges of the slots:
 * what readiness claims and releases to learn whether every master can take a claim. Each key's
 * hash tag is `<workspace>:r<n>`, the first `n` found in its range, so the store's
 * prefix (outside the braces) does not move it.
 */
export function probeKeys(workspaceId: string, id: string, ranges = PROBE_RANGES): string[] {
  const tags = new Array<string>(ranges);
  for (let n = 0, left = ranges; left > 0; n++) {
    const tag = `${workspaceId}:r${n}`;
    const range = Math.floor((keySlot(tag) * ranges) / SLOTS);
    if (tags[range] === undefined) {
      tags[range] = tag;
      left--;
    }
  }
  return tags.map((tag) => `ev:{${tag}}:${id}`);
}
