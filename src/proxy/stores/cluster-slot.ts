// The Redis Cluster's key-to-slot rule, for laying keys out (pipeline/event-keys.ts) and grouping a
// call's keys by slot (redis-store.ts). node-redis still routes every command itself.

const SLOTS = 16_384;

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
  for (let i = 0; i < tag.length; i++) {
    crc ^= (tag.charCodeAt(i) & 0xff) << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % SLOTS;
}
