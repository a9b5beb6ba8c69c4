// Who is the client, and what X-Forwarded-For chain may we vouch for upstream?

export interface ForwardedFor {
  /** The address used for per-client rate limits ('unknown' when the runtime gives none). */
  client: string;
  /** The X-Forwarded-For value to send upstream: the real client first, then trusted hops. */
  chain: string | undefined;
}

type Matcher = (address: string) => boolean;

/**
 * Builds a matcher for `trustedProxies` entries: exact addresses or IPv4 CIDR ranges.
 * Throws on an entry it cannot read, so a typo never silently trusts nobody (or everybody).
 */
export function trustMatcher(entries: readonly string[]): Matcher {
  const matchers: Matcher[] = entries.map((raw) => {
    const entry = raw.trim().toLowerCase();
    const slash = entry.indexOf('/');
    if (slash === -1) {
      if (!isAddress(entry)) throw new TypeError(`trustedProxies: '${raw}' is not an IP address or IPv4 CIDR range`);
      const exact = normalize(entry);
      return (address) => address === exact;
    }
    const base = ipv4ToInt(entry.slice(0, slash));
    const bits = Number(entry.slice(slash + 1));
    if (base === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32) {
      throw new TypeError(`trustedProxies: '${raw}' is not an IP address or IPv4 CIDR range`);
    }
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return (address) => {
      const value = ipv4ToInt(address);
      return value !== undefined && (value & mask) >>> 0 === (base & mask) >>> 0;
    };
  });
  return (address) => matchers.some((match) => match(address));
}

/**
 * Walks the chain from the nearest hop: while the hop that told us is a trusted proxy, believe
 * the address it reports. The first untrusted one is the client; everything further left could
 * have been written by the client itself, so it is dropped.
 */
export function forwardedFor(peer: string | undefined, header: string | null, trusted: Matcher): ForwardedFor {
  if (!peer) return { client: 'unknown', chain: undefined };
  const hops = [normalize(peer)];
  if (trusted(hops[0]!) && header) {
    const listed = header.split(',').map((part) => normalize(part.trim()));
    for (let i = listed.length - 1; i >= 0; i--) {
      const hop = listed[i]!;
      // A malformed entry ends what we can believe; the last good hop is the client.
      if (!isAddress(hop)) break;
      hops.unshift(hop);
      if (!trusted(hop)) break;
    }
  }
  return { client: hops[0]!, chain: hops.join(', ') };
}

function normalize(address: string): string {
  const lower = address.toLowerCase();
  // An IPv4 client on a dual-stack socket shows up as ::ffff:a.b.c.d.
  return lower.startsWith('::ffff:') && ipv4ToInt(lower.slice(7)) !== undefined ? lower.slice(7) : lower;
}

function isAddress(value: string): boolean {
  return ipv4ToInt(value) !== undefined || (value.includes(':') && /^[0-9a-f:.]+(%[\w.-]+)?$/.test(value));
}

function ipv4ToInt(value: string): number | undefined {
  const parts = value.split('.');
  if (parts.length !== 4) return undefined;
  let result = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const byte = Number(part);
    if (byte > 255) return undefined;
    result = result * 256 + byte;
  }
  return result;
}
