// Health, readiness and metrics routes for an operator's load balancer or Kubernetes, in front of
// the proxy, on both edges; the metrics text itself comes from the Node side.
import { OPERATIONS } from '../upstream/operations';
import { SAFE_HEADER_VALUE } from './config';
import { json } from './pipeline/answer';
import { errorBody } from './pipeline/error-response';
import { probeKeys } from './pipeline/event-keys';
import { PIPELINE, type Answer, type PipelineSource } from './pipeline/exchange';
import { storeErrorHint, storeErrorKind } from './stores/store-error';
import type { ProxyHandler, ProxyKeys, ProxyOptions, ProxyStore } from './types';

export interface ProbeOptions {
  /**
   * The options the proxy was created with: the keys and operations readiness checks, and the
   * workspace the store probe claims keys of.
   */
  options: Pick<ProxyOptions, 'keys' | 'operations'> & Partial<Pick<ProxyOptions, 'workspaceId'>>;
  /**
   * The store the proxy was given: `/readyz` calls its `ping()` when it has one, then claims and
   * releases probe keys spread over the slots (on a Redis Cluster, some on every master), as a request would.
   */
  store?: ProxyStore;
  /** Serves `GET /metrics` when given (see `createMetrics`). */
  metrics?: { contentType: string; render(): Promise<string> };
  /**
   * How long `ping()`, and then the claim probe, may take before the store counts as not ready, in ms.
   * @default 2000
   */
  pingTimeoutMs?: number;
  /**
   * Told once each time readiness changes (not per probe): a line saying what is not ready and
   * why, or that it is ready again.
   */
  onChange?: (line: string, ready: boolean) => void;
}

/**
 * Answers `GET /healthz` (the process serves: 200), `GET /readyz` (200 when a usable key is there
 * for every enabled operation and the store can claim: it answers `ping()` and a claim and release
 * of probe keys in every 256th of the cluster slots succeed; else 503 naming what failed) and,
 * with `metrics`, `GET /metrics`; passes every other request to the proxy. The paths are exact,
 * outside any `basePath`. Bodies name key tiles, never keys, and no store error text. On Node,
 * `serve` answers them on the same fast path as the proxy.
 *
 * @example
 * const store = createMemoryStore();
 * const proxy = createProxy({ ...options, store });
 * await serve(withProbes(proxy, { options, store, metrics: createMetrics() }), { port: 8787 });
 */
export function withProbes(proxy: ProxyHandler, given: ProbeOptions): ProxyHandler {
  const owner = `readyz-${crypto.randomUUID()}`;
  // This instance's own probe keys (a probe of another instance never meets them), made once.
  const probes = { ...given, state: { ready: true, line: '' }, owner, keys: probeKeys(given.options.workspaceId ?? 'readyz', owner) };
  const handler: ProxyHandler = async (request, info) => {
    const answer = probe(probes, request.method, new URL(request.url).pathname);
    if (!answer) return proxy(request, info);
    const { status, headers, body } = await answer;
    return new Response(body, { status, headers });
  };
  const source = (proxy as { [PIPELINE]?: PipelineSource })[PIPELINE];
  if (!source) return handler;
  const wrapped: PipelineSource = (sender) => {
    const pipeline = source(sender);
    return (exchange) => probe(probes, exchange.method, exchange.path) ?? pipeline(exchange);
  };
  return Object.assign(handler, { [PIPELINE]: wrapped });
}

/**
 * `handler` (a `withProbes` result) on a port of its own: the probes answered, every other
 * request 404, so the proxy's routes are served on its port alone.
 */
export function probesOnly(handler: ProxyHandler): ProxyHandler {
  return (request, info) =>
    PROBE_PATHS.has(new URL(request.url).pathname)
      ? handler(request, info)
      : Promise.resolve(Response.json(errorBody(undefined, { status: 404, message: 'Only /healthz, /readyz and /metrics are served on this port' }), { status: 404 }));
}

const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The probe's answer for this request, or undefined when it is not a probe. */
type Probes = ProbeOptions & { state: { ready: boolean; line: string }; owner: string; keys: string[] };

function probe(probes: Probes, method: string, path: string): Promise<Answer> | undefined {
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

async function ready(probes: Probes): Promise<Answer> {
  const [keys, store] = await Promise.all([checkKeys(probes.options), checkStore(probes, probes.pingTimeoutMs ?? 2000)]);
  const ok = keys === 'ok' && store === 'ok';
  const line = ok
    ? 'ready'
    : `not ready: ${keys === 'ok' ? '' : `keys: ${keys}`}${keys !== 'ok' && store !== 'ok' ? '; ' : ''}${store === 'ok' ? '' : `store: ${store}`}`;
  if (line !== probes.state.line && (ok !== probes.state.ready || !ok)) {
    // Once per change: the first failure, a different reason, and the way back.
    try {
      probes.onChange?.(line, ok);
    } catch {
      // A broken log must not break the probe.
    }
  }
  probes.state = { ready: ok, line };
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

async function checkStore(probes: Probes, timeoutMs: number): Promise<string> {
  const { store } = probes;
  if (!store) return 'ok';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    if (store.ping) {
      try {
        if ((await Promise.race([store.ping().then(() => 'ok' as const), timedOut])) !== 'ok') return 'unreachable (ping timed out)';
      } catch (error) {
        const hint = storeErrorHint(error);
        return hint ? `unreachable: ${hint}` : 'unreachable';
      }
    }
    // A ping that answers is not enough (a cluster read through a single-node client answers
    // every ping and fails every claim): claim and release a probe key in each 256th of the slots (so on every master), as requests do.
    const { keys } = probes;
    try {
      const claimed = await Promise.race([store.claim(keys, probes.owner, 10_000, 10_000), timedOut]);
      if (claimed === 'timeout') return 'cannot claim (timeout)';
      await store.release(keys, probes.owner);
      if (claimed.some((state) => state !== 'claimed')) return 'cannot claim (the probe key was not claimed)';
    } catch (error) {
      const kind = storeErrorKind(error);
      const hint = storeErrorHint(error);
      return `cannot claim (${kind}${hint ? `: ${hint}` : REASONS[kind]})`;
    }
    return 'ok';
  } finally {
    clearTimeout(timer);
  }
}

// What an operator checks first for each kind; never the store's own error text (it may carry
// addresses or credentials).
const REASONS: Record<string, string> = {
  redirection: ': MOVED/ASK/CROSSSLOT — a Redis Cluster read through a single-node client, or slots moving',
  connection: ': a node down or refusing connections, a wrong password, or a shard without a master',
  timeout: ': the store did not answer in time',
  script: ': the store refused the proxy’s scripts',
  other: '',
};
