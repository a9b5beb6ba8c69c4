// engage-sdk/proxy: the Web-standard proxy handler, its in-memory store, and the Node adapter.
export { createProxy } from './create-proxy';
export { createMemoryStore } from './memory-store';
export { DEFAULT_RATE_LIMITS } from './rate-limit';
export type { MemoryStoreOptions } from './memory-store';
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
export { serve } from '../serve-node';
export type { Handler, ConnectionInfo, ServeOptions, RunningServer } from '../serve-node';
