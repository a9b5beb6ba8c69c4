// The Worker of `bench/durable-object.mjs`: the built proxy with the memory store and with the
// Durable Object store (1 and 4 objects), each under its own path, and a route that drives one
// store directly. Every subrequest to an object is counted.
import { createMemoryStore, createProxy } from '#dist/proxy-web.js';
import { createDurableObjectStore } from '#dist/proxy-cloudflare.js';
export { EngageStore } from '#dist/proxy-cloudflare.js';

let subrequests = 0;
const counted = (namespace) => ({
  idFromName: (name) => namespace.idFromName(name),
  get: (id) => {
    const stub = namespace.get(id);
    return { fetch: (url, init) => (subrequests++, stub.fetch(url, init)) };
  },
});

const proxies = {};
function proxyFor(kind, env) {
  // 'memory', or 'do<shards>'
  const store = kind === 'memory' ? createMemoryStore() : createDurableObjectStore(counted(env.ENGAGE_STORE), { shards: Number(kind.slice(2)), name: kind });
  // The per-client budget stays (its increment is part of a request's cost), out of reach.
  const rateLimits = { experienceEvents: { client: [{ limit: 1e9, windowMs: 60_000 }] } };
  return createProxy({ workspaceId: env.WORKSPACE, keys: { personalize: 'bench-key' }, sdkUrl: env.UPSTREAM, basePath: `/${kind}`, store, rateLimits });
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === '/subrequests') {
      const count = subrequests;
      subrequests = 0;
      return Response.json(count);
    }
    // `calls` store calls in a row (one fresh key each: a claim, then its commit) on `shards` objects.
    if (url.pathname === '/object') {
      const shards = Number(url.searchParams.get('shards'));
      const store = createDurableObjectStore(env.ENGAGE_STORE, { shards, name: `rate${shards}` });
      const calls = Number(url.searchParams.get('calls'));
      const parallel = Number(url.searchParams.get('parallel') ?? 1);
      await Promise.all(
        Array.from({ length: parallel }, async () => {
          for (let i = 0; i < calls; i += 2) {
            const key = `ev:{bench}:${crypto.randomUUID()}`;
            await store.claim([key], 'owner', 10_000, 60_000);
            await store.commit([key], 60_000, 'owner');
          }
        }),
      );
      return Response.json(calls * parallel);
    }
    const kind = url.pathname.split('/')[1];
    proxies[kind] ??= proxyFor(kind, env);
    return proxies[kind](request, { clientAddress: '203.0.113.9', waitUntil: (work) => ctx.waitUntil(work) });
  },
};
