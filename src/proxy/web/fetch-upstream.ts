import type { Send } from '../pipeline/exchange';

/**
 * The Web edge's sender: `fetch`, with a time limit per attempt covering the body too.
 * `redirect: 'manual'`: a redirect must never carry our Authorization anywhere else.
 */
export function fetchUpstream(fetchFn: typeof fetch): Send {
  return async (origin, path, init, timeoutMs) => {
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
      const response = await fetchFn(origin + path, { ...init, redirect: 'manual', signal: controller?.signal });
      const text = await response.text();
      const { headers } = response;
      return { kind: 'response', status: response.status, retryAfter: headers.get('retry-after'), contentType: headers.get('content-type'), text };
    } catch {
      return { kind: timedOut ? 'timeout' : 'network' };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  };
}
