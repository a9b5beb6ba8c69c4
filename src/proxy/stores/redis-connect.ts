// A node-redis client made the way the proxy needs it, and the store over it: the one place
// (with redis.ts) that imports `redis`, an optional peer dependency.
import { createClient, type RedisClientOptions } from 'redis';
import { createRedisStore, type RedisStoreOptions } from './redis-store';
import { redactRedisUrl } from './redis-url';
import type { ProxyStore } from '../types';

export interface ConnectRedisStoreOptions extends RedisStoreOptions {
  /**
   * Receives every client error: refused or lost connections, each reconnection attempt that
   * fails. Errors never carry the password.
   * @default writes the message to `console.error`
   */
  onError?: (error: Error) => void;
  /**
   * More node-redis client options (TLS, `username`, `pingInterval`, `socket.reconnectStrategy`…).
   * `url` and `disableOfflineQueue: true` always win.
   * @default {}
   */
  clientOptions?: Omit<RedisClientOptions, 'url' | 'disableOfflineQueue'>;
}

export interface RedisStoreConnection {
  store: ProxyStore;
  /** The node-redis client (for other uses, or `INFO` in a health page). */
  client: ReturnType<typeof createClient>;
  /**
   * Whether the first connection succeeded. When false the client keeps retrying by itself and
   * store calls reject until it connects (the proxy serves without limits and dedup meanwhile).
   */
  connected: boolean;
  /** Closes the client (pending commands finish first). */
  close(): Promise<void>;
}

/**
 * Connects to Redis with the options the proxy needs and returns the store over it:
 * `disableOfflineQueue: true`, so commands fail at once while Redis is unreachable instead of
 * waiting and running late (a claim that runs late would hold its events for its whole TTL);
 * node-redis's own reconnection (every 50 ms doubling to 2 s, with jitter), so Redis is used
 * again as soon as it is back; and an `'error'` listener, without which a lost connection
 * crashes the process. Resolves after the first attempt, connected or not: an instance starts
 * and serves while Redis is down.
 *
 * @param url `redis://[user:password@]host[:port][/db]`, `rediss://` for TLS.
 * @example
 * const redis = await connectRedisStore(process.env.ENGAGE_REDIS_URL, { onError: (e) => log(e.message) });
 * const proxy = createProxy({ ...options, store: redis.store });
 * process.once('SIGTERM', () => void redis.close());
 */
export async function connectRedisStore(url: string, options: ConnectRedisStoreOptions = {}): Promise<RedisStoreConnection> {
  const { onError = (error: Error) => console.error(`engage-sdk redis: ${error.message}`), clientOptions = {}, ...storeOptions } = options;
  if (typeof url !== 'string' || !/^(rediss?|unix):\/\//i.test(url)) {
    throw new TypeError(`connectRedisStore: url must start with redis://, rediss:// or unix:// (got ${redactRedisUrl(String(url))})`);
  }
  // No node-redis command timeout (5 s by default, an AbortSignal.timeout per command: ~6% of a
  // proxy request's CPU): the store already bounds each call with one timer of its own.
  const client = createClient({ commandOptions: { timeout: 0 }, ...clientOptions, url, disableOfflineQueue: true });
  client.on('error', (error: Error) => onError(error));
  const first = new Promise<boolean>((resolve) => {
    client.once('ready', () => resolve(true));
    client.once('error', () => resolve(false));
  });
  // connect() settles only once connected, or when closed; the listeners above report the rest.
  client.connect().catch(() => {});
  const connected = await first;
  return {
    store: createRedisStore(client, storeOptions),
    client,
    connected,
    async close() {
      if (!client.isOpen) return;
      if (client.isReady) await client.close().catch(() => client.destroy());
      else client.destroy();
    },
  };
}
