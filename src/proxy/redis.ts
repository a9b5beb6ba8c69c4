// engage-sdk/proxy/redis: the proxy's store in Redis, over node-redis (an optional peer
// dependency, loaded only through this entry).
export { createRedisStore } from './redis-store';
export { connectRedisStore } from './redis-connect';
export { redactRedisUrl } from './redis-url';
export type { RedisStoreClient, RedisStoreOptions } from './redis-store';
export type { ConnectRedisStoreOptions, RedisStoreConnection } from './redis-connect';
export type { ClaimState, ProxyStore } from './types';
