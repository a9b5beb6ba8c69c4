/**
 * Every error engage-sdk reports or rejects with is an `EngageError` with a stable `code`.
 * Each failure mode has its own class with a literal `name`; the `is…` guards also match on
 * `name` and `code`, so they work across realms (iframes, duplicated bundles).
 */

export type EngageErrorCode = 'ERR_VALIDATION' | 'ERR_HTTP' | 'ERR_NETWORK' | 'ERR_TIMEOUT' | 'ERR_ABORTED' | 'ERR_STORAGE' | 'ERR_DROPPED';

export class EngageError extends Error {
  override name: string = 'EngageError';
  readonly code: EngageErrorCode;

  constructor(code: EngageErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Bad input: `field` names what was wrong, `rule` the rule it broke. Nothing was sent or stored. */
export class ValidationError extends EngageError {
  override name = 'ValidationError' as const;
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super('ERR_VALIDATION', `${field}: ${rule}`);
  }
}

/** The error fields an upstream (or proxy) error body carried, whatever its envelope. */
export interface UpstreamErrorDetail {
  code?: string;
  message?: string;
  target?: string;
  details?: Array<{ target?: string; message?: unknown; code?: string }>;
  requestId?: string;
}

/**
 * A non-2xx answer, or to the tracker a 2xx that is no acknowledgement (not the upstream's
 * `{status: "success"}`, which the proxy passes on: a service worker's offline page, a captive
 * portal). `body` is the parsed JSON body (or text); `upstream` its error fields.
 */
export class HttpError extends EngageError {
  override name = 'HttpError' as const;
  readonly status: number;
  readonly body: unknown;
  readonly upstream: UpstreamErrorDetail;
  /** From a `Retry-After` header, when the answer carried one. */
  readonly retryAfterMs: number | undefined;

  constructor(status: number, options: { body?: unknown; upstream?: UpstreamErrorDetail; retryAfterMs?: number; message?: string } = {}) {
    // The client adds the upstream's own message to `message`; composing it here cost every tracker bundle 17 B.
    super('ERR_HTTP', options.message ?? `HTTP ${status}`);
    this.status = status;
    this.body = options.body;
    this.upstream = options.upstream ?? {};
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The request never got an HTTP answer (offline, DNS, connection reset, CORS refusal). */
export class NetworkError extends EngageError {
  override name = 'NetworkError' as const;
  constructor(message = 'Network request failed', options?: { cause?: unknown }) {
    super('ERR_NETWORK', message, options);
  }
}

export class TimeoutError extends EngageError {
  override name = 'TimeoutError' as const;
  constructor(readonly timeoutMs: number) {
    super('ERR_TIMEOUT', `Request timed out after ${timeoutMs} ms`);
  }
}

/** The caller's `AbortSignal` fired. */
export class AbortedError extends EngageError {
  override name = 'AbortedError' as const;
  constructor(options?: { cause?: unknown }) {
    super('ERR_ABORTED', 'Aborted', options);
  }
}

/** IndexedDB is unavailable or failed; the tracker carries on from memory. */
export class StorageError extends EngageError {
  override name = 'StorageError' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_STORAGE', message, options);
  }
}

/**
 * Events were dropped: `reason` says why, `count` how many. `consent-pending`: recorded while
 * consent was pending beyond the 1,000 held in memory, reported when consent is granted.
 */
export class DroppedEventsError extends EngageError {
  override name = 'DroppedEventsError' as const;
  constructor(
    readonly count: number,
    readonly reason: 'overflow' | 'expired' | 'rejected' | 'opt-out' | 'consent-pending',
    options?: { cause?: unknown },
  ) {
    super('ERR_DROPPED', `${count} event(s) dropped: ${reason}`, options);
  }
}

const guard =
  <T extends EngageError>(name: string, code: EngageErrorCode) =>
  (error: unknown): error is T =>
    typeof error === 'object' && error !== null && (error as T).name === name && (error as T).code === code;

export const isEngageError = (error: unknown): error is EngageError =>
  typeof error === 'object' &&
  error !== null &&
  typeof (error as EngageError).code === 'string' &&
  (error as EngageError).code.startsWith('ERR_') &&
  error instanceof Error;
export const isValidationError = guard<ValidationError>('ValidationError', 'ERR_VALIDATION');
export const isHttpError = guard<HttpError>('HttpError', 'ERR_HTTP');
export const isNetworkError = guard<NetworkError>('NetworkError', 'ERR_NETWORK');
export const isTimeoutError = guard<TimeoutError>('TimeoutError', 'ERR_TIMEOUT');
export const isAbortedError = guard<AbortedError>('AbortedError', 'ERR_ABORTED');
export const isStorageError = guard<StorageError>('StorageError', 'ERR_STORAGE');
export const isDroppedEventsError = guard<DroppedEventsError>('DroppedEventsError', 'ERR_DROPPED');
