/**
 * A small seeded PRNG (mulberry32): the same seed gives the same fault pattern and the same
 * seeded data on every run, which is what makes a failing test reproducible.
 *
 * @example
 * const next = seededRandom(42);
 * next(); // 0.6011037519201636, always
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random hex string of `length` characters from `next`. */
export function hex(next: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += Math.floor(next() * 16).toString(16);
  return out;
}

/** One element of `items`, chosen by `next`. */
export const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
