// withProbes: /healthz, /readyz and /metrics in front of the real proxy handler.
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/proxy/stores/memory-store';
import { createProxy } from '../../src/proxy/create-proxy';
import { withProbes } from '../../src/proxy/probes';
import type { ProxyOptions, ProxyStore } from '../../src/proxy/types';
import { KEYS, WORKSPACE } from './support';

const options: ProxyOptions = { workspaceId: WORKSPACE, keys: KEYS, sdkUrl: 'http://127.0.0.1:1', basePath: '/engage' };
const get = (handler: ReturnType<typeof withProbes>, path: string, method = 'GET') => handler(new Request(`http://proxy.test${path}`, { method }));
const withPing = (ping: () => Promise<void>): ProxyStore => ({ ...createMemoryStore(), ping });

describe('withProbes', () => {
  it('/healthz answers 200 while the process serves', async () => {
    const res = await get(withProbes(createProxy(options), { options }), '/healthz');
    expect([res.status, await res.json(), res.headers.get('cache-control')]).toEqual([200, { status: 'ok' }, 'no-store']);
  });

  it('/readyz is ready with keys for the enabled operations and a store without ping (in memory)', async () => {
    const store = createMemoryStore();
    const res = await get(withProbes(createProxy({ ...options, store }), { options, store }), '/readyz');
    expect([res.status, await res.json()]).toEqual([200, { status: 'ready', checks: { keys: 'ok', store: 'ok' } }]);
  });

  it('/readyz is 503 when the store’s ping rejects, without the store’s error text', async () => {
    const store = withPing(() => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:6379 password=hunter2')));
    const res = await get(withProbes(createProxy({ ...options, store }), { options, store }), '/readyz');
    const text = await res.text();
    expect([res.status, JSON.parse(text)]).toEqual([503, { status: 'not ready', checks: { keys: 'ok', store: 'unreachable' } }]);
    expect(text).not.toContain('hunter2');
  });

  it('/readyz is 503 when ping does not answer in time', async () => {
    const store = withPing(() => new Promise(() => {}));
    const res = await get(withProbes(createProxy({ ...options, store }), { options, store, pingTimeoutMs: 20 }), '/readyz');
    expect([res.status, await res.json()]).toEqual([503, { status: 'not ready', checks: { keys: 'ok', store: 'unreachable (ping timed out)' } }]);
  });

  it('/readyz is 503 naming the key tile (never the key) an enabled operation lacks', async () => {
    const rotated: ProxyOptions = { ...options, keys: () => ({ data: KEYS.data }), operations: ['experienceEvents', 'users'], baseUrl: 'http://127.0.0.1:1' };
    const res = await get(withProbes(createProxy(rotated), { options: rotated }), '/readyz');
    const text = await res.text();
    expect([res.status, JSON.parse(text)]).toEqual([503, { status: 'not ready', checks: { keys: 'missing: personalize', store: 'ok' } }]);
    expect(text).not.toContain(KEYS.data);
  });

  it('/metrics only when metrics are given; other methods and paths go to the proxy', async () => {
    const plain = withProbes(createProxy(options), { options });
    expect((await get(plain, '/metrics')).status).toBe(404);
    expect((await get(plain, '/healthz', 'POST')).status).toBe(404);
    const metered = withProbes(createProxy(options), { options, metrics: { contentType: 'text/plain; version=0.0.4', render: async () => 'x_total 1\n' } });
    const res = await get(metered, '/metrics');
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([200, 'text/plain; version=0.0.4', 'x_total 1\n']);
  });
});
