// engage-proxy: the proxy on Node, configured from ENGAGE_* environment variables (see env-config.ts),
// with /healthz, /readyz and /metrics beside it for load balancers, Kubernetes and Prometheus.
import process from 'node:process';
import { serve } from './serve';
import { createProxy } from '../create-proxy';
import { configFromEnv } from './env-config';
import { logLine, type LogFormat } from './log-line';
import { createMemoryStore } from '../stores/memory-store';
import { createMetrics } from './metrics';
import { redactRedisUrl } from '../stores/redis-url';
import { withProbes } from '../probes';
import type { ProxyLogEntry, ProxyStore } from '../types';

async function main(): Promise<void> {
  const config = configFromEnv(process.env);
  if ('errors' in config) {
    for (const error of config.errors) console.error(`engage-proxy: ${error}`);
    process.exitCode = 1;
    return;
  }
  // The one place the store is made: the proxy and the readiness probe must share it.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  const store: ProxyStore = redis?.store ?? createMemoryStore();
  const metrics = createMetrics();
  const print = printer(config.logFormat);
  let proxy;
  try {
    proxy = createProxy({
      ...config.options,
      store,
      logger: (entry) => {
        metrics.logger(entry);
        print(entry);
      },
    });
  } catch (error) {
    // createProxy's messages name options and never carry a key.
    console.error(`engage-proxy: ${(error as Error).message}`);
    process.exitCode = 1;
    return;
  }
  const handler = withProbes(proxy, { options: config.options, store, metrics });
  const server = await serve(handler, { port: config.port, host: config.host });
  const ops = config.options.operations!.join(', ');
  const where = redis ? `${redactRedisUrl(config.redisUrl!)}${redis.connected ? '' : ' (not reachable yet: serving without limits and memory until it is)'}` : 'memory';
  console.log(`engage-proxy: listening on ${server.url}${config.options.basePath} for workspace ${config.options.workspaceId} (${ops}); store: ${where}`);
  const stop = () => {
    void Promise.all([server.close(), redis?.close()]).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * The Redis store, loaded only when configured (`redis` is an optional peer dependency). Client
 * errors are logged at most once per 10 s: node-redis reports every failed reconnection attempt.
 */
async function connectRedis(url: string) {
  const { connectRedisStore } = await import('../stores/redis-connect');
  let quietUntil = 0;
  return connectRedisStore(url, {
    onError: (error) => {
      if (Date.now() < quietUntil) return;
      quietUntil = Date.now() + 10_000;
      console.error(`engage-proxy: redis: ${error.message} (serving without limits and memory while it lasts)`);
    },
  });
}

/** One line per request, on stdout (stderr for warnings and errors). */
function printer(format: LogFormat): (entry: ProxyLogEntry) => void {
  return (entry) => (entry.level === 'info' ? console.log : console.error)(logLine(entry, format));
}

main().catch((error: unknown) => {
  console.error(`engage-proxy: could not start: ${(error as Error)?.message ?? 'unknown error'}`);
  process.exitCode = 1;
});
