// No size figure typed by hand in a guide (issue 43: four guides quoted sizes that had gone stale).
// The guides link to docs/performance.md's "Size" table, which test/size.test.ts checks against
// what it measures. History keeps its figures: decisions.md and the changelog say what each change
// cost when it was made.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/packed';

const HISTORY = ['docs/performance.md', 'docs/decisions.md'];
const GUIDES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`)
    .filter((file) => !HISTORY.includes(file)),
];
// "4,793 B gzip", "3.6 KB gzip", "871 B gzip", "gzip -9 … 6,192": a byte count beside gzip.
const FIGURE = /\d[\d,.]*\s?(?:B|KB|kB|KiB)\b[^.\n|]{0,40}gzip|gzip[^.\n]{0,40}?\b\d[\d,]{2,}\b(?!\s?(?:ms|s|%))/;

describe('guides quote no size figure by hand', () => {
  it.each(GUIDES)('%s', (guide) => {
    const lines = readFileSync(join(ROOT, guide), 'utf8').split('\n');
    expect(lines.filter((line) => FIGURE.test(line))).toEqual([]);
  });
  it('the pattern catches the figures that went stale', () => {
    for (const stale of ['`dist/engage.iife.js` is 6,192 B gzip (tracker', 'code (4,793 B gzip).', '`dist/engage-sw.js` is 3.6 KB gzip, downloaded']) {
      expect(FIGURE.test(stale), stale).toBe(true);
    }
    expect(FIGURE.test('Their sizes in gzip bytes, measured by the size test')).toBe(false);
  });
});
