import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_BACKOFF_MS, RETRY_RULES, retryDelay } from '../../src/client/retry-policy';
import { createPacer } from '../../src/client/transport';
import { AbortedError, HttpError, NetworkError, TimeoutError, ValidationError } from '../../src/errors';

const settings = { retries: 3, baseDelayMs: 500, maxRetryAfterMs: 30_000 };
const max = () => 0.999999;

describe('retryDelay (pure)', () => {
  it('status queries repeat network errors, timeouts, 408, 429 and 5xx; not other 4xx', () => {
    for (const error of [new NetworkError(), new TimeoutError(10), ...[408, 429, 500, 502, 503, 504].map((s) => new HttpError(s))]) {
      expect(retryDelay('fileImportStatus', error, 0, settings)).toBeTypeOf('number');
    }
    for (const status of [400, 401, 403, 404, 413, 415]) expect(retryDelay('fileImportStatus', new HttpError(status), 0, settings)).toBeUndefined();
  });

  it.each(['users', 'events', 'campaignUpdate'] as const)('%s repeats only 429 (never an unknown outcome)', (operation) => {
    expect(retryDelay(operation, new HttpError(429), 0, settings)).toBeTypeOf('number');
    for (const error of [new NetworkError(), new TimeoutError(10), new HttpError(500), new HttpError(502), new HttpError(503)]) {
      expect(retryDelay(operation, error, 0, settings)).toBeUndefined();
    }
    expect(RETRY_RULES[operation].network).toBe(false);
  });

  it('never repeats validation or abort', () => {
    expect(retryDelay('fileImportStatus', new ValidationError('a', 'b'), 0, settings)).toBeUndefined();
    expect(retryDelay('fileImportStatus', new AbortedError(), 0, settings)).toBeUndefined();
  });

  it('Retry-After wins over backoff; one longer than maxRetryAfterMs ends the retries', () => {
    expect(retryDelay('events', new HttpError(429, { retryAfterMs: 7000 }), 0, settings)).toBe(7000);
    expect(retryDelay('events', new HttpError(429, { retryAfterMs: 30_001 }), 0, settings)).toBeUndefined();
  });

  it('full-jitter exponential backoff, capped at 8 s, and at most `retries` repeats', () => {
    expect(retryDelay('fileImportStatus', new HttpError(503), 0, settings, max)).toBe(499);
    expect(retryDelay('fileImportStatus', new HttpError(503), 2, settings, max)).toBe(1999);
    expect(retryDelay('fileImportStatus', new HttpError(503), 2, { ...settings, retries: 10 }, () => 0)).toBe(0);
    expect(retryDelay('fileImportStatus', new HttpError(503), 9, { ...settings, retries: 10 }, max)).toBe(MAX_BACKOFF_MS - 1);
    expect(retryDelay('fileImportStatus', new HttpError(503), 3, settings)).toBeUndefined();
  });
});

describe('createPacer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts at most one request per gap: 48 per minute with 1250 ms', async () => {
    vi.useFakeTimers({ now: 0 });
    const pacer = createPacer(1250);
    const starts: number[] = [];
    const run = (async () => {
      for (let i = 0; i < 60; i++) {
        await pacer.wait();
        starts.push(Date.now());
      }
    })();
    await vi.runAllTimersAsync();
    await run;
    expect(starts.filter((t) => t < 60_000)).toHaveLength(48);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(1250);
  });

  it('concurrent callers queue up: three at once start 0, 1250 and 2500 ms later', async () => {
    vi.useFakeTimers({ now: 0 });
    const pacer = createPacer(1250);
    const starts: number[] = [];
    const all = Promise.all(
      [0, 1, 2].map(async () => {
        await pacer.wait();
        starts.push(Date.now());
      }),
    );
    await vi.runAllTimersAsync();
    await all;
    expect(starts).toEqual([0, 1250, 2500]);
  });
});
