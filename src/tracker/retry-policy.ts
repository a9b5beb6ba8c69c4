/**
 * What to do with the answer to a delivery request, and when to try again. Pure, so it is tested
 * without I/O.
 *
 * - `OK`: 2xx, the events are delivered.
 * - `RETRY`: no answer (status 0), 408, 429, 5xx: the same events, same UUIDs, later.
 * - `SPLIT`: 400, 413, 422: something in the batch is refused; halve it to isolate the event.
 * - `HOLD`: anything else (401/403 after a key rotation, 404 from a missing proxy route…): the
 *   fault is in the setup, not in the events, so keep every event and wait long.
 */
// Numbers, not strings: the tracker compares verdicts in three places, and string literals
// survive minification (17 B gzip of every tracker bundle).
export const OK = 0;
export const RETRY = 1;
export const SPLIT = 2;
export const HOLD = 3;
export type Verdict = typeof OK | typeof RETRY | typeof SPLIT | typeof HOLD;

export function classify(status: number): Verdict {
  if (status >= 200 && status < 300) return OK;
  if (status === 0 || status === 408 || status === 429 || status >= 500) return RETRY;
  if (status === 400 || status === 413 || status === 422) return SPLIT;
  return HOLD;
}

export const BASE_DELAY = 1_000;
export const MAX_DELAY = 60_000;
export const HOLD_DELAY = 30_000;
export const MAX_HOLD_DELAY = 600_000;

/**
 * Exponential backoff with full jitter (a random delay in [0, cap)), never shorter than the
 * server's `Retry-After`. `failures` counts consecutive failures, from 1.
 */
export function retryDelay(verdict: Verdict, failures: number, retryAfterMs = 0, random = Math.random): number {
  const exponent = Math.min(failures - 1, 20);
  const delay = verdict === HOLD ? Math.min(MAX_HOLD_DELAY, HOLD_DELAY * 2 ** exponent) : random() * Math.min(MAX_DELAY, BASE_DELAY * 2 ** exponent);
  return Math.max(Math.round(delay), Math.min(retryAfterMs, MAX_HOLD_DELAY));
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms from `now`; 0 when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number {
  if (!value) return 0;
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  return ms > 0 ? ms : 0;
}
