export interface ForwardPolicy {
  /** Extra attempts after a network error, timeout or 5xx (0 for non-idempotent operations). */
  retries: number;
  timeoutMs: number;
  baseDelayMs: number;
}

export type ForwardResult =
  | { kind: 'response'; status: number; headers: Headers; text: string; attempts: number }
  | { kind: 'network' | 'timeout'; attempts: number };

/** Longest backoff between two attempts. */
export const MAX_RETRY_DELAY_MS = 2_000;

/**
 * Calls the upstream, with a time limit per attempt (covering the body too) and, when the
 * policy allows, retries with exponential backoff and full jitter. A 5xx `Retry-After` longer
 * than the backoff cap ends the retries: the caller's own retry policy waits better than we do.
 */
export async function forward(fetchFn: typeof fetch, url: string, init: RequestInit, policy: ForwardPolicy): Promise<ForwardResult> {
  let attempt = 0;
  for (;;) {
    attempt++;
    const result = await once(fetchFn, url, init, policy.timeoutMs, attempt);
    const retryable = result.kind !== 'response' || result.status >= 500;
    if (!retryable || attempt > policy.retries) return result;
    let delay = Math.random() * Math.min(MAX_RETRY_DELAY_MS, policy.baseDelayMs * 2 ** (attempt - 1));
    if (result.kind === 'response') {
      const retryAfter = retryAfterSeconds(result.headers.get('retry-after'));
      if (retryAfter !== undefined) {
        if (retryAfter * 1000 > MAX_RETRY_DELAY_MS) return result;
        delay = Math.max(delay, retryAfter * 1000);
      }
    }
    await sleep(delay);
  }
}

async function once(fetchFn: typeof fetch, url: string, init: RequestInit, timeoutMs: number, attempts: number): Promise<ForwardResult> {
  // Timers and AbortController exist on every real runtime; without them there is simply no time limit.
  const controller = typeof AbortController === 'function' ? new AbortController() : undefined;
  let timedOut = false;
  const timer =
    controller && typeof setTimeout === 'function' && timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs)
      : undefined;
  try {
    const response = await fetchFn(url, { ...init, signal: controller?.signal });
    const text = await response.text();
    return { kind: 'response', status: response.status, headers: response.headers, text, attempts };
  } catch {
    return { kind: timedOut ? 'timeout' : 'network', attempts };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** `Retry-After` as seconds (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** Waits `ms`, or not at all on a runtime without timers. */
export function sleep(ms: number): Promise<void> {
  return typeof setTimeout === 'function' ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
