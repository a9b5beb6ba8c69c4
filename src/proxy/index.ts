// engage-sdk/proxy on every runtime (workerd, Deno, Bun, browsers' bundlers, and Node's
// `default`): the Web-standard handler and its in-memory store. Nothing here imports a Node
// built-in or a package; the Node extras (serve, middleware, metrics) are in ./node.ts.
export { createProxy } from './create-proxy';
export { createMemoryStore } from './stores/memory-store';
export { DEFAULT_RATE_LIMITS } from './pipeline/rate-limit';
export { withProbes } from './probes';
export { isCrawler } from './pipeline/crawlers';
export type { MemoryStoreOptions } from './stores/memory-store';
export type { ProbeOptions } from './probes';
export type {
  Operation,
  OperationRateLimits,
  ProxyConnectionInfo,
  ProxyHandler,
  ProxyKeys,
  ProxyLogEntry,
  ProxyLogger,
  ProxyOptions,
  ProxyStore,
  RateLimit,
} from './types';
