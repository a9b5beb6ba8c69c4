// engage-sdk/proxy under the `node` condition, and engage-sdk/proxy/node everywhere: the
// Web-standard surface of ./index.ts plus what needs Node — the http adapter, the (req, res)
// middleware for Express/Connect/Fastify, and Prometheus metrics (prom-client).
export { createProxy, createMemoryStore, DEFAULT_RATE_LIMITS, isCrawler, withProbes } from './index';
export type {
  MemoryStoreOptions,
  Operation,
  OperationRateLimits,
  ProbeOptions,
  ProxyConnectionInfo,
  ProxyHandler,
  ProxyKeys,
  ProxyLogEntry,
  ProxyLogger,
  ProxyOptions,
  ProxyStore,
  RateLimit,
} from './index';
export { createMetrics } from './node/metrics';
export type { MetricsOptions, ProxyMetrics } from './node/metrics';
export { createNodeMiddleware, serve } from './node/serve';
export type { ConnectionInfo, Handler, NodeMiddleware, RunningServer, ServeOptions } from './node/serve';
