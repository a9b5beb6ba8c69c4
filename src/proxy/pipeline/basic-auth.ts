const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * `Basic base64(username:password)` over UTF-8, written out because `btoa` is Latin-1 only and
 * `Buffer` is Node only; this needs nothing but `TextEncoder`.
 */
export function basicAuth(username: string, password: string): string {
  // The same pair on every request of a proxy: encoded once (a key rotation encodes the new one).
  if (last?.username === username && last.password === password) return last.header;
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]!;
    out += b === undefined ? '=' : ALPHABET[(n >> 6) & 63]!;
    out += c === undefined ? '=' : ALPHABET[n & 63]!;
  }
  last = { username, password, header: `Basic ${out}` };
  return last.header;
}

let last: { username: string; password: string; header: string } | undefined;
