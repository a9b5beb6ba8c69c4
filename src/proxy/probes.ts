// Health, readiness and metrics routes for an operator's load balancer or Kubernetes, in front of
// the proxy. Web-standard like the handler; the metrics text itself comes from the Node side.
import { OPERATIONS } from '../upstream/operations';
import { SAFE_HEADER_VALUE } from './config';
import type { ProxyHandler, ProxyKeys, ProxyOptions, ProxyStore } from './types';

export interface ProbeOptions {
  /** The options the proxy was created with: the keys and operations readiness checks. */
  options: Pick<ProxyOptions, 'keys' | 'operations'>;
  /** The store the proxy was given: `/readyz` calls its `ping()` when it has one. */
  store?: ProxyStore;
  /** Serves `GET /metrics` when given (see `createMetrics`). */
  metrics?: { contentType: string; render(): Promise<string> };
  /**
   * How long `ping()` may take before the store counts as unreachable, in ms.
   * @default 2000
   */
  pingTimeoutMs?: number;
}

/**
 * Answers `GET /healthz` (the process serves: 200), `GET /readyz` (200 when a usable key is there
 * for every enabled operation and the store answers `ping()`, else 503 naming what failed) and,
 * with `metrics`, `GET /metrics`; passes every other request to the proxy. The paths are exact,
 * outside any `basePath`. Bodies name key tiles, never keys, and no store error text.
 *
 * @example
 * const store = createMemoryStore();
 * const proxy = createProxy({ ...options, store });
 * await serve(withProbes(proxy, { options, store, metrics: createMetrics() }), { port: 8787 });
 */
export function withProbes(proxy: ProxyHandler, probes: ProbeOptions): ProxyHandler {
  return async (request, info) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return proxy(request, info);
    const path = new URL(request.url).pathname;
    if (path === '/healthz') return json(200, { status: 'ok' });
    if (path === '/readyz') return ready(probes);
    if (path === '/metrics' && probes.metrics) {
      try {
        return new Response(await probes.metrics.render(), {
          headers: { 'content-type': probes.metrics.contentType, 'cache-control': 'no-store' },
        });
      } catch {
        return json(500, { status: 'error', message: 'metrics could not be rendered' });
      }
    }
    return proxy(request, info);
  };
}

async function ready(probes: ProbeOptions): Promise<Response> {
  const [keys, store] = await Promise.all([checkKeys(probes.options), checkStore(probes.store, probes.pingTimeoutMs ?? 2000)]);
  const ok = keys === 'ok' && store === 'ok';
  return json(ok ? 200 : 503, { status: ok ? 'ready' : 'not ready', checks: { keys, store } });
}

async function checkKeys(options: ProbeOptions['options']): Promise<string> {
  let keys: ProxyKeys;
  try {
    keys = typeof options.keys === 'function' ? await options.keys() : options.keys;
  } catch {
    return 'keys() failed';
  }
  const tiles = new Set((options.operations ?? ['experienceEvents']).map((operation) => OPERATIONS[operation].keyTile));
  const missing = [...tiles].filter((tile) => {
    const key = keys && typeof keys === 'object' ? keys[tile] : undefined;
    return typeof key !== 'string' || key === '' || !SAFE_HEADER_VALUE.test(key);
  });
  return missing.length ? `missing: ${missing.join(', ')}` : 'ok';
}

async function checkStore(store: ProxyStore | undefined, timeoutMs: number): Promise<string> {
  // A store without ping (the memory store) lives in this process: reachable while we answer.
  if (!store?.ping) return 'ok';
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([store.ping().then(() => 'ok' as const), timedOut]);
    return outcome === 'ok' ? 'ok' : 'unreachable (ping timed out)';
  } catch {
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}
