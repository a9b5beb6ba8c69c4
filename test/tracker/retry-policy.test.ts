import { describe, expect, it } from 'vitest';
import { classify, HOLD, MAX_DELAY, MAX_HOLD_DELAY, OK, parseRetryAfter, RETRY, retryDelay, SPLIT } from '../../src/tracker/retry-policy';

describe('classify', () => {
  it.each([
    [200, OK],
    [204, OK],
    [0, RETRY],
    [408, RETRY],
    [429, RETRY],
    [500, RETRY],
    [502, RETRY],
    [503, RETRY],
    [504, RETRY],
    [400, SPLIT],
    [413, SPLIT],
    [422, SPLIT],
    [401, HOLD],
    [403, HOLD],
    [404, HOLD],
    [405, HOLD],
    [415, HOLD],
  ])('%i → %i', (status, verdict) => expect(classify(status)).toBe(verdict));
});

describe('retryDelay', () => {
  it('is full jitter over an exponential cap', () => {
    expect(retryDelay(RETRY, 1, 0, () => 0.999)).toBe(999);
    expect(retryDelay(RETRY, 3, 0, () => 0.5)).toBe(2_000);
    expect(retryDelay(RETRY, 4, 0, () => 0)).toBe(0);
    expect(retryDelay(RETRY, 40, 0, () => 0.999)).toBeLessThanOrEqual(MAX_DELAY);
  });
  it('never undercuts Retry-After, capped', () => {
    expect(retryDelay(RETRY, 1, 7_000, () => 0.1)).toBe(7_000);
    expect(retryDelay(RETRY, 1, 10 ** 9, () => 0.1)).toBe(MAX_HOLD_DELAY);
  });
  it('waits long and without jitter on a hold (rotated key)', () => {
    expect(retryDelay(HOLD, 1, 0, () => 0)).toBe(30_000);
    expect(retryDelay(HOLD, 2, 0, () => 0)).toBe(60_000);
    expect(retryDelay(HOLD, 30, 0, () => 0)).toBe(MAX_HOLD_DELAY);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  it.each([
    [null, 0],
    ['', 0],
    ['3', 3_000],
    ['0', 0],
    ['soon', 0],
    ['Sun, 22 Nov 2026 10:00:30 GMT', 30_000],
    ['Sun, 22 Nov 2026 09:00:00 GMT', 0],
  ])('%j → %i ms', (value, ms) => expect(parseRetryAfter(value, now)).toBe(ms));
});
