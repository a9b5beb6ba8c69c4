// One process, three roles: the emulator (upstream stand-in) on its own port, and one HTTP origin
// that serves pages and mounts the proxy at /engage, the way a real site would. Used by the demo,
// the browser tests and the benchmarks, so all three exercise the same wiring.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmulator, serve } from '#dist/emulator.js';
import { createMemoryStore, createMetrics, createProxy, withProbes } from '#dist/proxy.js';

export const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json',
};

/**
 * @param {object} [options]
 * @param {number} [options.port] page origin port (0 = ephemeral)
 * @param {number} [options.emulatorPort]
 * @param {object} [options.emulator] createEmulator options
 * @param {object} [options.proxy] extra createProxy options (workspace, keys and URLs are filled in)
 * @param {string} [options.root] directory served as static files (default: the repository)
 * @param {(request: Request) => Promise<Response|undefined>} [options.routes] extra routes, tried after the proxy
 * @param {(request: Request) => Promise<Response|undefined>|Response|undefined} [options.intercept] tried before
 *   everything, the proxy included (the demo's "offline" switch answers /engage with Response.error())
 * @param {(url: URL) => Record<string,string>|undefined} [options.headers] extra headers for static files
 */
export async function startStack(options = {}) {
  const emulator = createEmulator(options.emulator ?? {});
  const emulatorServer = await serve(emulator.handler, { port: options.emulatorPort ?? 0 });
  let keys = { ...emulator.keys };
  // As engage-proxy does: one store for the proxy and its readiness probe, metrics from its log.
  const store = options.proxy?.store ?? createMemoryStore();
  const metrics = createMetrics();
  const proxy = createProxy({
    workspaceId: emulator.workspaceId,
    keys: () => keys,
    store,
    logger: metrics.logger,
    baseUrl: emulatorServer.url,
    sdkUrl: emulatorServer.url,
    fileImportsUrl: emulatorServer.url,
    basePath: '/engage',
    ...options.proxy,
  });
  const probes = withProbes(proxy, { options: { keys: () => keys, operations: options.proxy?.operations }, store, metrics });
  const root = options.root ?? repoRoot;
  const site = await serve(
    async (request, info) => {
      const url = new URL(request.url);
      const intercepted = options.intercept && (await options.intercept(request));
      if (intercepted) return intercepted;
      if (url.pathname === '/engage' || url.pathname.startsWith('/engage/')) return proxy(request, info);
      if (['/healthz', '/readyz', '/metrics'].includes(url.pathname)) return probes(request, info);
      const extra = options.routes && (await options.routes(request));
      if (extra) return extra;
      return serveStatic(root, url, options.headers?.(url));
    },
    { port: options.port ?? 0 },
  );
  return {
    url: site.url,
    endpoint: `${site.url}/engage`,
    emulatorUrl: emulatorServer.url,
    emulator,
    /** Give the proxy new keys (after a rotation), as an operator would. */
    setProxyKeys(next) {
      keys = { ...keys, ...next };
    },
    async close() {
      await Promise.all([site.close(), emulatorServer.close()]);
    },
  };
}

async function serveStatic(root, url, headers = {}) {
  let path;
  try {
    path = normalize(join(root, decodeURIComponent(url.pathname)));
  } catch {
    return new Response('Bad path', { status: 400 });
  }
  if (path !== root && !path.startsWith(root + sep)) return new Response('Not found', { status: 404 });
  try {
    if ((await stat(path)).isDirectory()) path = join(path, 'index.html');
    const body = await readFile(path);
    return new Response(body, {
      headers: { 'content-type': types[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-store', ...headers },
    });
  } catch {
    return new Response('Not found', { status: 404 });
  }
}
