// engage-proxy: the proxy on Node, configured from ENGAGE_* environment variables (see env-config.ts),
// with /healthz, /readyz and /metrics beside it for load balancers, Kubernetes and Prometheus.
import cluster from 'node:cluster';
import process from 'node:process';
import { createProxy } from '../create-proxy';
import { probesOnly, withProbes } from '../probes';
import { createMemoryStore } from '../stores/memory-store';
import { redactRedisUrl } from '../stores/redis-url';
import type { ProxyStore } from '../types';
import { cliArgs, HELP } from './cli-args';
import { configFromEnv, type EnvConfig } from './env-config';
import { createMetrics } from './metrics';
import { startProbeThread } from './probe-thread';
import { createRequestLog } from './request-log';
import { serve, type Handler, type RunningServer } from './serve';
import { clusterMetrics, runPrimary } from './workers';

async function main(): Promise<void> {
  const args = cliArgs(process.argv.slice(2), process.env);
  if ('error' in args) {
    console.error(`engage-proxy: ${args.error}`);
    process.exitCode = 2;
    return;
  }
  if (args.help) {
    console.log(HELP);
    return;
  }
  const config = configFromEnv(args.env);
  if ('errors' in config) {
    for (const error of config.errors) console.error(`engage-proxy: ${error}`);
    console.error('engage-proxy: engage-proxy --help lists every variable and its default');
    process.exitCode = 1;
    return;
  }
  if (config.workers > 1 && cluster.isPrimary) {
    // Checked once here, so a wrong password stops the CLI instead of every worker dying and
    // being restarted in a loop.
    try {
      await (await connectRedis(config.redisUrl!)).close();
    } catch (error) {
      console.error(`engage-proxy: ENGAGE_REDIS_URL: ${(error as Error).message}`);
      process.exitCode = 1;
      return;
    }
    // The workers check the options (createProxy) again; the primary only says where they serve.
    runPrimary(config.workers, ({ address, port }) => {
      const host = address.includes(':') ? `[${address}]` : address;
      const probes = config.probePort === undefined ? '' : `; probes on port ${config.probePort}`;
      console.log(`engage-proxy: ${announce(config, `http://${host}:${port}`)}; store: ${redactRedisUrl(config.redisUrl!)}; ${config.workers} workers${probes}`);
    });
    return;
  }
  // The one place the store is made: the proxy and the readiness probe must share it.
  let redis;
  try {
    redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  } catch (error) {
    // A wrong password or a URL that cannot name the cluster: retrying would never help. The
    // message carries the URL with its password masked, never the password.
    console.error(`engage-proxy: ENGAGE_REDIS_URL: ${(error as Error).message}`);
    process.exitCode = 1;
    return;
  }
  const store: ProxyStore = redis?.store ?? createMemoryStore();
  const metrics = createMetrics();
  const log = createRequestLog(config.logFormat, config.logLevel, cluster.worker?.id);
  let proxy;
  try {
    proxy = createProxy({
      ...config.options,
      store,
      logger: (entry) => {
        metrics.logger(entry);
        log.write(entry);
      },
    });
  } catch (error) {
    // createProxy's messages name options and never carry a key.
    console.error(`engage-proxy: ${(error as Error).message}`);
    process.exitCode = 1;
    return;
  }
  const scraped = cluster.isWorker ? clusterMetrics(metrics) : metrics;
  const handler = withProbes(proxy, {
    options: config.options,
    store,
    metrics: scraped,
    // Once per change, not per probe: what is not ready and why, then that it is ready again.
    onChange: (line, ready) => (ready ? console.log : console.error)(`engage-proxy: ${line}`),
  });
  const server = await serve(handler, {
    port: config.port,
    host: config.host,
    requestTimeoutMs: config.requestTimeoutMs,
    onRequestTimeout: () => metrics.requestTimedOut(),
  });
  // The probes on a port of their own: its own accept queue, so when thousands of connections
  // arrive at once on the proxy's port (a brownout's re-sends), a probe that opens a new
  // connection, as kubelet's does, is not dropped with them and retried a second later; and its
  // own thread, so /healthz does not wait while the proxy's loop works through them
  // (probe-thread.ts). Workers share their ports through the primary, which a thread's server
  // cannot: there each worker serves the probe port on its own loop.
  let probeServer: RunningServer | undefined;
  try {
    probeServer = config.probePort === undefined ? undefined : await serveProbes(probesOnly(handler), { port: config.probePort, host: config.host });
  } catch (error) {
    // A port taken: serving without the probes an orchestrator was told to use would only get
    // this instance restarted later, with less said.
    console.error(`engage-proxy: ENGAGE_PROBE_PORT: ${(error as Error).message}`);
    await Promise.all([server.close(), redis?.close()]);
    process.exit(1);
  }
  if (cluster.isPrimary) {
    const where = redis
      ? `${redactRedisUrl(config.redisUrl!)}${redis.cluster ? ' (Redis Cluster)' : ''}${redis.connected ? '' : ` (ENGAGE_REDIS_URL not reachable yet: ${redis.firstError ?? 'no answer'}; not ready, ${config.options.storeFailure === 'retry' ? 'answering 503 to events' : 'serving without limits and memory'} until it is)`}`
      : 'memory';
    console.log(`engage-proxy: ${announce(config, server.url)}; store: ${where}${probeServer ? `; probes on ${probeServer.url}` : ''}`);
  }
  const stop = () => {
    void Promise.all([server.close(), probeServer?.close(), redis?.close()]).then(() => {
      log.flush();
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function serveProbes(probes: Handler, where: { port: number; host: string }): Promise<RunningServer> {
  if (cluster.isWorker) return serve(probes, where);
  return startProbeThread(probes, { ...where, onError: (error) => console.error(`engage-proxy: the probe port's thread stopped: ${error.message}`) });
}

function announce(config: EnvConfig, url: string): string {
  const { basePath, workspaceId, operations } = config.options;
  return `listening on ${url}${basePath} for workspace ${workspaceId} (${operations!.join(', ')})`;
}

/**
 * The Redis store, loaded only when configured (`redis` is an optional peer dependency). Client
 * errors are logged at most once per 10 s: node-redis reports every failed reconnection attempt.
 */
async function connectRedis(url: string) {
  const { connectRedisStore } = await import('../stores/redis-connect');
  let quietUntil = 0;
  let firstError: string | undefined;
  const connection = await connectRedisStore(url, {
    onError: (error) => {
      firstError ??= error.message;
      if (Date.now() < quietUntil) return;
      quietUntil = Date.now() + 10_000;
      console.error(`engage-proxy: redis: ${error.message} (store calls fail while it lasts)`);
    },
  });
  return Object.assign(connection, { firstError });
}

main().catch((error: unknown) => {
  console.error(`engage-proxy: could not start: ${(error as Error)?.message ?? 'unknown error'}`);
  process.exitCode = 1;
});
