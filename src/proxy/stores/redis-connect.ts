// A node-redis client made the way the proxy needs it — one node, or a Redis Cluster found from
// one of its nodes — and the store over it: the one place (with redis.ts) that imports `redis`,
// an optional peer dependency.
import { createClient, createCluster, type RedisClientOptions, type RedisClusterOptions } from 'redis';
import { createRedisStore, flushRedisStore, type RedisStoreOptions } from './redis-store';
import { redactRedisUrl } from './redis-url';
import type { ProxyStore } from '../types';

export interface ConnectRedisStoreOptions extends Omit<RedisStoreOptions, 'cluster'> {
  /**
   * Receives every client error: refused or lost connections, each reconnection attempt that
   * fails, a cluster node's errors. Errors never carry the password.
   * @default writes the message to `console.error`
   */
  onError?: (error: Error) => void;
  /**
   * More node-redis client options (TLS, `username`, `pingInterval`, `socket.reconnectStrategy`…).
   * On a cluster they are the defaults of every node's client. `url` and
   * `disableOfflineQueue: true` always win.
   * @default {}
   */
  clientOptions?: Omit<RedisClientOptions, 'url' | 'disableOfflineQueue'>;
  /**
   * Whether the URL names a node of a Redis Cluster. `'auto'` asks the node (`INFO cluster`,
   * `cluster_enabled:1`) once it answers and then uses node-redis's cluster client over the
   * topology it discovers from there (routing, `MOVED`/`ASK`, failovers are node-redis's).
   * @default 'auto'
   */
  cluster?: boolean | 'auto';
  /** More `createCluster` options (`nodeAddressMap`, `useReplicas`…), for a cluster. */
  clusterOptions?: Omit<RedisClusterOptions, 'rootNodes' | 'defaults'>;
}

type SingleClient = ReturnType<typeof createClient>;
type ClusterClient = ReturnType<typeof createCluster>;

export interface RedisStoreConnection {
  store: ProxyStore;
  /** The node-redis client in use: a single-node client, or a cluster client once a cluster is found. */
  readonly client: SingleClient | ClusterClient;
  /** Whether it is a Redis Cluster; undefined while the URL has not answered yet. */
  readonly cluster: boolean | undefined;
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
 * and serves while Redis is down. Rejects when Redis refuses the credentials (a wrong password
 * never gets better by retrying) or the URL cannot name a cluster (a database other than 0).
 *
 * A URL naming one node of a Redis Cluster (as a managed cluster's endpoint is named) gives a
 * cluster store: the node says so (`cluster_enabled:1`), and node-redis's `createCluster` takes
 * over from it, with the URL's user, password and TLS for every node.
 *
 * @param url `redis://[user:password@]host[:port][/db]`, `rediss://` for TLS.
 * @example
 * const redis = await connectRedisStore(process.env.ENGAGE_REDIS_URL, { onError: (e) => log(e.message) });
 * const proxy = createProxy({ ...options, store: redis.store });
 * process.once('SIGTERM', () => void redis.close());
 */
export async function connectRedisStore(url: string, options: ConnectRedisStoreOptions = {}): Promise<RedisStoreConnection> {
  const {
    onError = (error: Error) => console.error(`engage-sdk redis: ${error.message}`),
    clientOptions = {},
    cluster: mode = 'auto',
    clusterOptions = {},
    ...storeOptions
  } = options;
  if (typeof url !== 'string' || !/^(rediss?|unix):\/\//i.test(url)) {
    throw new TypeError(`connectRedisStore: url must start with redis://, rediss:// or unix:// (got ${redactRedisUrl(String(url))})`);
  }
  if (mode !== 'auto' && typeof mode !== 'boolean') throw new TypeError(`connectRedisStore: cluster must be true, false or 'auto' (got ${String(mode)})`);
  const where = redactRedisUrl(url);
  // No node-redis command timeout (5 s by default, an AbortSignal.timeout per command: ~6% of a
  // proxy request's CPU): the store already bounds each call with one timer of its own.
  const single: SingleClient = createClient({ commandOptions: { timeout: 0 }, ...clientOptions, url, disableOfflineQueue: true });
  let client: SingleClient | ClusterClient = single;
  let isCluster: boolean | undefined = mode === 'auto' ? undefined : mode;
  let current = createRedisStore(single, { ...storeOptions, cluster: false });
  let closed = false;

  const makeCluster = async (): Promise<void> => {
    const parsed = new URL(url);
    if (parsed.pathname.length > 1 && parsed.pathname !== '/0') {
      throw new Error(`${where} names database ${parsed.pathname.slice(1)}, but a Redis Cluster has only database 0`);
    }
    const node = {
      ...clientOptions,
      ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
      ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
      socket: { ...clientOptions.socket, ...(parsed.protocol === 'rediss:' ? { tls: true } : {}) },
      disableOfflineQueue: true,
    } as RedisClusterOptions['defaults'];
    const made = createCluster({
      // A failed master's client reconnects in vain until the topology is read again; re-read it
      // every second while any node is reconnecting, so a promoted replica is used within about a
      // second (node-redis's default waits 5 s).
      topologyRefreshOnReconnectionAttemptStrategy: 1_000,
      ...clusterOptions,
      commandOptions: { timeout: 0, ...clusterOptions.commandOptions },
      rootNodes: [{ url }],
      defaults: node,
    });
    made.on('error', (error: Error) => onError(error));
    made.on('node-error', (error: Error) => onError(error));
    await made.connect();
    if (closed) return void made.destroy();
    client = made as unknown as ClusterClient;
    isCluster = true;
    current = createRedisStore(made, { ...storeOptions, cluster: true });
    single.destroy();
  };

  // Asks the node what it is, the first time it answers, and moves to a cluster client if need be.
  let detecting: Promise<void> | undefined;
  const detect = (): Promise<void> =>
    (detecting ??= (async () => {
      if (isCluster === false) return;
      if (isCluster === undefined) {
        let info = '';
        try {
          // A bulk string, or (RESP3) a verbatim string, whose text String() gives.
          // eslint-disable-next-line @typescript-eslint/no-base-to-string
          info = String(await single.sendCommand(['INFO', 'cluster']));
        } catch (error) {
          // A user whose ACL forbids INFO on a single Redis must not be locked out: taken as one
          // node (a cluster read that way is then not ready, naming redirection). Said once.
          onError(new Error(`INFO cluster refused (${(error as Error).message}): taken as a single Redis; pass cluster: true for a cluster`));
        }
        isCluster = /cluster_enabled:1/.test(info);
        if (!isCluster) return;
      }
      await makeCluster();
    })().catch((error: unknown) => {
      // Tried again at the next connection.
      detecting = undefined;
      throw error;
    }));

  let firstError: Error | undefined;
  single.on('error', (error: Error) => {
    firstError ??= error;
    if (client === single) onError(error);
  });
  const first = new Promise<boolean>((resolve) => {
    single.once('ready', () => resolve(true));
    single.once('error', () => resolve(false));
  });
  single.on('ready', () => {
    // Reachable only later: find out then (a failure is reported and retried at the next connection).
    if (client === single && detecting === undefined) void detect().catch((error: Error) => onError(error));
  });
  if (isCluster === true) {
    // Told it is a cluster: node-redis's cluster client alone, no single-node client.
    single.destroy();
    try {
      await makeCluster();
    } catch (error) {
      throw new Error(`Redis Cluster at ${where}: ${(error as Error).message}`, { cause: error });
    }
    return connection(true);
  }
  // connect() settles only once connected, or when closed; the listeners above report the rest.
  single.connect().catch(() => {});
  const connected = await first;
  if (!connected && firstError && isAuthError(firstError)) {
    single.destroy();
    throw new Error(`Redis at ${where} refused the credentials: ${firstError.message}`, { cause: firstError });
  }
  if (connected) {
    try {
      await detect();
    } catch (error) {
      single.destroy();
      throw new Error(`Redis Cluster at ${where}: ${(error as Error).message}`, { cause: error });
    }
  }
  return connection(connected);

  function connection(connected: boolean): RedisStoreConnection {
    return {
      // Calls go to whichever client is current: the single-node one until a cluster is found.
      store: {
        increment: (key, amount, ttlMs) => current.increment(key, amount, ttlMs),
        claim: (keys, owner, ttlMs, acceptedMs) => current.claim(keys, owner, ttlMs, acceptedMs),
        commit: (keys, ttlMs, owner) => current.commit(keys, ttlMs, owner),
        release: (keys, owner) => current.release(keys, owner),
        ping: () => current.ping!(),
      },
      get client() {
        return client;
      },
      get cluster() {
        return isCluster;
      },
      connected,
      async close() {
        closed = true;
        await flushRedisStore(current).catch(() => {});
        const open = client;
        if (!open.isOpen) return;
        if (open.isReady) await open.close().catch(() => open.destroy());
        else open.destroy();
      },
    };
  }
}

/** Redis refused the credentials (wrong password, unknown or disabled user). */
function isAuthError(error: Error): boolean {
  return /WRONGPASS|NOAUTH|invalid password|invalid username-password|AUTH failed|NOPERM/i.test(error.message);
}
