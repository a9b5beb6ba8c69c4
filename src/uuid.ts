// `crypto.randomUUID()` costs 1.6–4 µs a call in Chromium 156 (most of the tracker's 2 µs budget
// per event) and exists only in secure contexts; random bytes drawn 4 KiB at a time from the same
// CSPRNG and formatted here cost 0.46 µs. (The uuid package cost about 130 gzip bytes more for the
// same formatting.)
const HEX = /* @__PURE__ */ Array.from({ length: 256 }, (_, i) => (i + 256).toString(16).slice(1));
let pool = new Uint8Array(0);
let next = 0;

/** A random UUID v4 (RFC 9562): version nibble 4, variant bits 10. */
export const uuidV4 = (): string => {
  if (next + 16 > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(4096));
    next = 0;
  }
  const b = (i: number): string => HEX[pool[next + i]!]!;
  // One expression, not a loop with `+=`: half the time in Chromium (0.46 against 0.87 µs).
  const id =
    b(0) +
    b(1) +
    b(2) +
    b(3) +
    '-' +
    b(4) +
    b(5) +
    '-' +
    HEX[(pool[next + 6]! & 15) | 64] +
    b(7) +
    '-' +
    HEX[(pool[next + 8]! & 63) | 128] +
    b(9) +
    '-' +
    b(10) +
    b(11) +
    b(12) +
    b(13) +
    b(14) +
    b(15);
  next += 16;
  return id;
};
