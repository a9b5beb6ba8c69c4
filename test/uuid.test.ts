import { describe, expect, it } from 'vitest';
import { uuidV4 } from '../src/uuid';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidV4', () => {
  // 1,000 ids span four refills of the 4 KiB pool (256 ids each).
  const ids = Array.from({ length: 1_000 }, uuidV4);

  it('has the v4 layout, version nibble and variant bits, and never repeats across pool refills', () => {
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps every random hex digit random (none stuck at one value)', () => {
    const hex = ids.map((id) => id.replaceAll('-', ''));
    for (let i = 0; i < 32; i++) {
      if (i === 12) continue; // the version nibble, always 4
      const seen = new Set(hex.map((h) => h[i]));
      expect(seen.size, `digit ${i}`).toBe(i === 16 ? 4 : 16); // the variant digit is one of 8, 9, a, b
    }
  });
});
