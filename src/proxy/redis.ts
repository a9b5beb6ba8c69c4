// engage-sdk/proxy/redis: the proxy's store in Redis, over node-redis (an optional peer
// dependency, loaded only through this entry).
export { createRedisStore } from './stores/redis-store';
export { connectRedisStore } from './stores/redis-connect';
export { redactRedisUrl } from './stores/redis-url';
export type { RedisStoreClient, RedisStoreOptions } from './stores/redis-store';
export type { ConnectRedisStoreOptions, RedisStoreConnection } from './stores/redis-connect';
export type { ClaimState, ProxyStore } from './types';
