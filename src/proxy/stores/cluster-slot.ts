// The Redis Cluster's key-to-slot rule, for grouping a call's keys by the master node-redis says
// holds their slot (redis-store.ts) and placing readiness's probe keys (pipeline/event-keys.ts).
// node-redis still routes every command itself.

/** Slots in a Redis Cluster. */
export const SLOTS = 16_384;

// CRC16 (XMODEM), a byte at a time: the store computes the slot of every key of a call.
const CRC_TABLE = new Uint16Array(256);
for (let byte = 0; byte < 256; byte++) {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  CRC_TABLE[byte] = crc;
}

/** The hash tag of a key (the first `{…}` with something inside: what decides its slot), or the key itself. */
export function hashTag(key: string): string {
  const open = key.indexOf('{');
  if (open < 0) return key;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

/**
 * The slot of a key: CRC16 (XMODEM) of its hash tag modulo 16,384, the cluster specification's
 * rule. Our keys are ASCII (workspace IDs are `[\w.-]`, UUIDs hex), so characters are bytes.
 */
export function keySlot(key: string): number {
  const tag = hashTag(key);
  let crc = 0;
  for (let i = 0; i < tag.length; i++) crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[((crc >>> 8) ^ tag.charCodeAt(i)) & 0xff]!;
  return crc % SLOTS;
}

let tags: string[] | undefined;

/**
 * A short hash tag whose slot is `slot` (`{<tag>}` in a key puts the key there): what the Redis
 * store names a claim's marker with, beside the keys it answers for. The table is made on first
 * use, ~170,000 CRCs of 1–4 characters (a few ms), and never changes: the slot of a tag is fixed.
 */
export function slotTag(slot: number): string {
  if (!tags) {
    const table = new Array<string>(SLOTS);
    for (let n = 0, left = SLOTS; left > 0; n++) {
      const tag = n.toString(36);
      const at = keySlot(tag);
      if (table[at] === undefined) {
        table[at] = tag;
        left--;
      }
    }
    tags = table;
  }
  return tags[slot]!;
}
