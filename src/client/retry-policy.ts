import type { EngageError } from '../errors';

/** The operations the client calls. */
export type ClientOperation = 'users' | 'events' | 'campaignUpdate' | 'fileImportStatus';

/** What may be repeated for one operation. */
export interface RetryRule {
  /** Repeat after a network error or a timeout (the request may or may not have been applied). */
  network: boolean;
  /** HTTP statuses after which the request is repeated. */
  statuses: readonly number[];
}

/**
 * Which failures are repeated, per operation. The rule: repeat only when doing it twice cannot
 * change the outcome.
 *
 * - `fileImportStatus` is a read: network errors, timeouts, 408, 429 and 5xx are all retried.
 * - `events` has no deduplication key upstream: after a network error, a timeout or a 5xx the
 *   events may already be counted, and a repeat would count them twice. Only 429 (refused before
 *   processing) is retried.
 * - `users` is a last-write-wins upsert with array operators (`addValueToArrayField`): a late
 *   repeat can overwrite a newer write from the same app, or apply an array edit twice. Only 429.
 * - `campaignUpdate` replaces whole objects, but a late repeat can undo a newer update by another
 *   editor, and the V1 API documents no idempotency: only 429, within its 10/s and 100/min budget.
 *
 * A caller that knows better (e.g. a user upsert of plain attributes) can catch the error and
 * call again; `HttpError.retryAfterMs` says how long to wait.
 */
export const RETRY_RULES: Readonly<Record<ClientOperation, RetryRule>> = {
  fileImportStatus: { network: true, statuses: [408, 429, 500, 502, 503, 504] },
  users: { network: false, statuses: [429] },
  events: { network: false, statuses: [429] },
  campaignUpdate: { network: false, statuses: [429] },
};

/** Longest backoff between two attempts, whatever the attempt number. */
export const MAX_BACKOFF_MS = 8000;

/** The knobs of `retryDelay`, clamped by the caller. */
export interface RetrySettings {
  retries: number;
  baseDelayMs: number;
  maxRetryAfterMs: number;
}

/**
 * How long to wait before repeating after `error` (attempt 0 is the first request), or undefined
 * when it must not be repeated. `Retry-After` wins over the backoff; one longer than
 * `maxRetryAfterMs` ends the retries. Backoff: full jitter over `base · 2^attempt`, ≤ 8 s.
 *
 * @example
 * retryDelay('fileImportStatus', new HttpError(503), 0, { retries: 2, baseDelayMs: 500, maxRetryAfterMs: 30000 }); // 0..500
 */
export function retryDelay(
  operation: ClientOperation,
  error: EngageError,
  attempt: number,
  settings: RetrySettings,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= settings.retries) return undefined;
  const rule = RETRY_RULES[operation];
  let retryAfterMs: number | undefined;
  if (error.code === 'ERR_HTTP') {
    const http = error as EngageError & { status: number; retryAfterMs?: number };
    if (!rule.statuses.includes(http.status)) return undefined;
    retryAfterMs = http.retryAfterMs;
  } else if (error.code === 'ERR_NETWORK' || error.code === 'ERR_TIMEOUT') {
    if (!rule.network) return undefined;
  } else {
    return undefined;
  }
  if (retryAfterMs !== undefined) return retryAfterMs > settings.maxRetryAfterMs ? undefined : retryAfterMs;
  return Math.floor(random() * Math.min(MAX_BACKOFF_MS, settings.baseDelayMs * 2 ** attempt));
}
