// A real Redis Cluster for the tests that claim cluster behaviour: 3 masters + 3 replicas (or the
// masters and replicas asked for), redis-server processes (test/support/redis-server.ts), each in
// its own temp dir (nodes.conf is per node) on a free loopback port, joined by `redis-cli --cluster
// create`, stopped by their pids.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startRedisServer, type RedisServer } from './redis-server';

const run = promisify(execFile);
const REDIS_CLI = process.env.REDIS_CLI_PATH ?? '/usr/bin/redis-cli';

export interface ClusterNode {
  id: string;
  port: number;
  /** `CLUSTER NODES` flags, e.g. `['myself', 'master']`, `['slave']`, `['master', 'fail']`. */
  flags: string[];
  /** The master's id for a replica, `-` for a master. */
  master: string;
  server: RedisServer;
}

export interface RedisCluster {
  /** The servers, in start order (the first `masters` are the masters at creation). */
  servers: RedisServer[];
  /** `redis://127.0.0.1:<port of the first node>`: one node, as a managed cluster's endpoint is named. */
  url: string;
  /** The cluster as the given (or first live) node sees it. */
  nodes(from?: RedisServer): Promise<ClusterNode[]>;
  /** The current masters that are not failed, seen from a live node. */
  masters(): Promise<ClusterNode[]>;
  /** Waits until every live node says `cluster_state:ok` and every slot has a live master. */
  waitOk(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

// The node timeout bounds how long a dead master's slots go unserved: its replica is promoted
// after about this long (TOOLCHAIN.md).
const NODE_TIMEOUT_MS = 2_000;

export interface RedisClusterOptions {
  /** Every node requires it (`requirepass`, and `masterauth` for the replicas), as managed clusters do. */
  password?: string;
  /** @default 3 */
  masters?: number;
  /** Replicas of each master. @default 1 */
  replicas?: number;
}

export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisCluster> {
  const auth = options.password ? ['--requirepass', options.password, '--masterauth', options.password] : [];
  const args = ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', String(NODE_TIMEOUT_MS), ...auth];
  const masters = options.masters ?? 3;
  const replicas = options.replicas ?? 1;
  const servers = await Promise.all(Array.from({ length: masters * (1 + replicas) }, () => startRedisServer({ args })));
  // redis-cli, which can authenticate, for everything the helper asks the nodes.
  const cli = (server: RedisServer, ...command: string[]) =>
    run(REDIS_CLI, ['-p', String(server.port), ...(options.password ? ['--no-auth-warning', '-a', options.password] : []), ...command], { timeout: 5_000 }).then(
      ({ stdout }) => stdout,
    );
  const cluster: RedisCluster = {
    servers,
    url: servers[0]!.url,
    async nodes(from) {
      const source = from ?? (await live(servers));
      const text = await cli(source, 'CLUSTER', 'NODES');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [id, address, flags, master] = line.split(' ');
          const port = Number(/:(\d+)@/.exec(address!)![1]);
          return { id: id!, port, flags: flags!.split(','), master: master!, server: servers.find((s) => s.port === port)! };
        });
    },
    async masters() {
      return (await cluster.nodes()).filter((node) => node.flags.includes('master') && !node.flags.some((flag) => flag.startsWith('fail')));
    },
    async waitOk(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const alive = servers.filter((server) => server.pid() !== undefined);
        const states = await Promise.all(alive.map((server) => cli(server, 'CLUSTER', 'INFO').catch(() => '')));
        if (states.every((state) => /cluster_state:ok/.test(state) && /cluster_slots_ok:16384/.test(state))) return;
        if (Date.now() > deadline) throw new Error(`Redis Cluster not ok after ${timeoutMs} ms:\n${states.join('\n---\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop: async () => {
      await Promise.all(servers.map((server) => server.stop()));
    },
  };
  try {
    await run(
      REDIS_CLI,
      [
        '--cluster',
        'create',
        ...servers.map((s) => `127.0.0.1:${s.port}`),
        '--cluster-replicas',
        String(replicas),
        '--cluster-yes',
        ...(options.password ? ['--no-auth-warning', '-a', options.password] : []),
      ],
      {
        timeout: 30_000,
      },
    );
    await cluster.waitOk();
    // A replica that has not finished its first sync cannot be promoted: wait for every link.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const infos = await Promise.all(servers.map((server) => cli(server, 'INFO', 'replication')));
      const synced = infos.filter((info) => /role:slave/.test(info));
      if (synced.length === masters * replicas && synced.every((info) => /master_link_status:up/.test(info) && /master_sync_in_progress:0/.test(info))) break;
      if (Date.now() > deadline) throw new Error(`Redis Cluster replicas did not sync:\n${infos.join('\n---\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

async function live(servers: RedisServer[]): Promise<RedisServer> {
  const server = servers.find((s) => s.pid() !== undefined);
  if (!server) throw new Error('no live node in the cluster');
  return server;
}

/** The text of a RESP bulk-string reply (INFO, CLUSTER NODES…). */
export function bulk(reply: string): string {
  const match = /^\$(-?\d+)\r\n/.exec(reply);
  if (!match) throw new Error(`not a bulk reply: ${reply.slice(0, 200)}`);
  return reply.slice(match[0].length, match[0].length + Number(match[1]));
}
