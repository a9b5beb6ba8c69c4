import { describe, expect, it } from 'vitest';
import { classify, MAX_DELAY, MAX_HOLD_DELAY, parseRetryAfter, retryDelay } from '../../src/tracker/retry-policy';

describe('classify', () => {
  it.each([
    [200, 'ok'], [204, 'ok'],
    [0, 'retry'], [408, 'retry'], [429, 'retry'], [500, 'retry'], [502, 'retry'], [503, 'retry'], [504, 'retry'],
    [400, 'split'], [413, 'split'], [422, 'split'],
    [401, 'hold'], [403, 'hold'], [404, 'hold'], [405, 'hold'], [415, 'hold'],
  ])('%i → %s', (status, verdict) => expect(classify(status)).toBe(verdict));
});

describe('retryDelay', () => {
  it('is full jitter over an exponential cap', () => {
    expect(retryDelay('retry', 1, 0, () => 0.999)).toBe(999);
    expect(retryDelay('retry', 3, 0, () => 0.5)).toBe(2_000);
    expect(retryDelay('retry', 4, 0, () => 0)).toBe(0);
    expect(retryDelay('retry', 40, 0, () => 0.999)).toBeLessThanOrEqual(MAX_DELAY);
  });
  it('never undercuts Retry-After, capped', () => {
    expect(retryDelay('retry', 1, 7_000, () => 0.1)).toBe(7_000);
    expect(retryDelay('retry', 1, 10 ** 9, () => 0.1)).toBe(MAX_HOLD_DELAY);
  });
  it('waits long and without jitter on a hold (rotated key)', () => {
    expect(retryDelay('hold', 1, 0, () => 0)).toBe(30_000);
    expect(retryDelay('hold', 2, 0, () => 0)).toBe(60_000);
    expect(retryDelay('hold', 30, 0, () => 0)).toBe(MAX_HOLD_DELAY);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  it.each([
    [null, 0], ['', 0], ['3', 3_000], ['0', 0], ['soon', 0],
    ['Sun, 22 Nov 2026 10:00:30 GMT', 30_000], ['Sun, 22 Nov 2026 09:00:00 GMT', 0],
  ])('%j → %i ms', (value, ms) => expect(parseRetryAfter(value, now)).toBe(ms));
});
