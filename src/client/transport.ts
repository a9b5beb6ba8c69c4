import { AbortedError, HttpError, NetworkError, TimeoutError, ValidationError, type EngageError } from '../errors';
import { parseRetryAfter, parseUpstreamError } from './parse-error';
import { retryDelay, type ClientOperation } from './retry-policy';
import type { CallOptions, TransportOptions } from './types';

/** Spaces the starts of requests at least `gapMs` apart (used by `watch` to stay under a rate). */
export interface Pacer {
  wait(signal?: AbortSignal): Promise<void>;
}

/** Internal per-call options: the public ones plus a pacer. */
export interface SendOptions extends CallOptions {
  pacer?: Pacer;
  /** Largest body the upstream takes (413 above it): refused before sending. */
  maxBodyBytes?: number;
}

/** A configured way to send one JSON request to the proxy, with timeouts, retries and typed errors. */
export interface Transport {
  send(operation: ClientOperation, method: 'POST' | 'PATCH', path: string, body: unknown, options?: SendOptions): Promise<unknown>;
}

const clamp = (value: number | undefined, fallback: number, min: number, max: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;

/**
 * Resolves after `ms`, or rejects with `AbortedError` as soon as `signal` fires.
 *
 * @example
 * await sleep(1000, controller.signal);
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError({ cause: signal.reason }));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError({ cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A pacer that lets one request start every `gapMs`.
 *
 * @example
 * const pacer = createPacer(1250); // ≤ 48 requests per minute
 */
export function createPacer(gapMs: number): Pacer {
  let next = -Infinity;
  return {
    async wait(signal) {
      // The slot is taken before waiting, so concurrent callers queue up instead of all
      // starting at the same due time.
      const now = Date.now();
      const start = Math.max(now, next);
      next = start + gapMs;
      if (start > now) await sleep(start - now, signal);
    },
  };
}

/**
 * Builds the transport of a client. Checks the options at once (a missing endpoint or fetch is a
 * `ValidationError` thrown by the factory, not a failure of the first call).
 *
 * @example
 * const transport = createTransport({ endpoint: '/engage' });
 * await transport.send('users', 'POST', '/v1/customer', body);
 */
export function createTransport(options: TransportOptions): Transport {
  if (typeof options !== 'object' || options === null) throw new ValidationError('options', 'must be an object');
  const { endpoint } = options;
  if (typeof endpoint !== 'string' || endpoint.trim() === '') throw new ValidationError('endpoint', 'must be a non-empty URL or path');
  const fetchImpl = options.fetch ?? (typeof fetch === 'function' ? fetch : undefined);
  if (typeof fetchImpl !== 'function') throw new ValidationError('fetch', 'must be a function (no global fetch here)');
  const base = endpoint.replace(/\/+$/, '');
  const timeoutMs = clamp(options.timeoutMs, 10_000, 1, 600_000);
  const settings = {
    retries: Math.floor(clamp(options.retries, 2, 0, 10)),
    baseDelayMs: clamp(options.retryBaseDelayMs, 500, 0, 60_000),
    maxRetryAfterMs: clamp(options.maxRetryAfterMs, 30_000, 0, 600_000),
  };

  async function headersFor(): Promise<Headers> {
    const extra = typeof options.headers === 'function' ? await options.headers() : options.headers;
    const headers = new Headers(extra);
    headers.set('content-type', 'application/json');
    if (!headers.has('accept')) headers.set('accept', 'application/json');
    return headers;
  }

  /** One attempt: resolves with the parsed body of a 2xx, rejects with a typed error otherwise. */
  async function attempt(method: string, url: string, payload: string, call: SendOptions): Promise<unknown> {
    // Outside the try: an error of the caller's own headers function is theirs, not a network error.
    const headers = await headersFor();
    const controller = new AbortController();
    const limit = clamp(call.timeoutMs, timeoutMs, 1, 600_000);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, limit);
    const onAbort = () => controller.abort();
    call.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await fetchImpl!(url, {
        method,
        headers,
        body: payload,
        credentials: options.credentials ?? 'same-origin',
        signal: controller.signal,
        redirect: 'error',
      });
      // The body is read under the same time limit: a stalled body is a timeout too.
      const text = await response.text();
      let body: unknown = text;
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON (a gateway's HTML page): kept as text.
        }
      } else {
        body = undefined;
      }
      if (response.ok) return body;
      const upstream = parseUpstreamError(body);
      throw new HttpError(response.status, {
        body,
        upstream,
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
        message: `HTTP ${response.status}${upstream.message ? `: ${upstream.message}` : ''}`,
      });
    } catch (error) {
      if ((error as EngageError)?.code === 'ERR_HTTP') throw error;
      if (call.signal?.aborted) throw new AbortedError({ cause: call.signal.reason });
      if (timedOut) throw new TimeoutError(limit);
      throw new NetworkError(`Network request failed: ${method} ${url}`, { cause: error });
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    async send(operation, method, path, body, call = {}) {
      const url = base + path;
      const payload = JSON.stringify(body);
      if (call.maxBodyBytes !== undefined) {
        const size = new TextEncoder().encode(payload).length;
        if (size > call.maxBodyBytes) throw new ValidationError('body', `must be at most ${call.maxBodyBytes} bytes of JSON (the upstream's limit); this one is ${size}`);
      }
      for (let n = 0; ; n++) {
        if (call.signal?.aborted) throw new AbortedError({ cause: call.signal.reason });
        await call.pacer?.wait(call.signal);
        try {
          return await attempt(method, url, payload, call);
        } catch (error) {
          const delay = retryDelay(operation, error as EngageError, n, settings);
          if (delay === undefined) throw error;
          await sleep(delay, call.signal);
        }
      }
    },
  };
}
