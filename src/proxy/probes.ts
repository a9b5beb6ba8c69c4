// Health, readiness and metrics routes for an operator's load balancer or Kubernetes, in front of
// the proxy, on both edges; the metrics text itself comes from the Node side.
import { OPERATIONS } from '../upstream/operations';
import { SAFE_HEADER_VALUE } from './config';
import { json } from './pipeline/answer';
import { PIPELINE, type Answer, type PipelineSource } from './pipeline/exchange';
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
 * outside any `basePath`. Bodies name key tiles, never keys, and no store error text. On Node,
 * `serve` answers them on the same fast path as the proxy.
 *
 * @example
 * const store = createMemoryStore();
 * const proxy = createProxy({ ...options, store });
 * await serve(withProbes(proxy, { options, store, metrics: createMetrics() }), { port: 8787 });
 */
export function withProbes(proxy: ProxyHandler, probes: ProbeOptions): ProxyHandler {
  const handler: ProxyHandler = async (request, info) => {
    const answer = probe(probes, request.method, new URL(request.url).pathname);
    if (!answer) return proxy(request, info);
    const { status, headers, body } = await answer;
    return new Response(body, { status, headers });
  };
  const source = (proxy as { [PIPELINE]?: PipelineSource })[PIPELINE];
  if (!source) return handler;
  const wrapped: PipelineSource = (send) => {
    const pipeline = source(send);
    return (exchange) => probe(probes, exchange.method, exchange.path) ?? pipeline(exchange);
  };
  return Object.assign(handler, { [PIPELINE]: wrapped });
}

/** The probe's answer for this request, or undefined when it is not a probe. */
function probe(probes: ProbeOptions, method: string, path: string): Promise<Answer> | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  if (path === '/healthz') return Promise.resolve(json(200, { status: 'ok' }));
  if (path === '/readyz') return ready(probes);
  if (path === '/metrics' && probes.metrics) return metrics(probes.metrics);
  return undefined;
}

async function metrics(metrics: NonNullable<ProbeOptions['metrics']>): Promise<Answer> {
  try {
    return { status: 200, headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' }, body: await metrics.render() };
  } catch {
    return json(500, { status: 'error', message: 'metrics could not be rendered' });
  }
}

async function ready(probes: ProbeOptions): Promise<Answer> {
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
