// Servers as separate processes for the benches, and the CPU time the kernel charged them.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TICK_US = 10_000; // USER_HZ is 100 on Linux

/**
 * Starts `command` and resolves once `port` on 127.0.0.1 accepts connections.
 * @param {string} command
 * @param {string[]} args
 * @param {{ port: number, env?: Record<string, string>, quiet?: boolean }} options
 */
export async function start(command, args, { port, env = {}, quiet = true }) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 15_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`bench: ${command} ${args.join(' ')} did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    pid: child.pid,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

const accepts = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.end() && true));
    socket.once('error', () => resolve(false));
  });

const CLI = new URL('../dist/proxy-cli.js', import.meta.url).pathname;

/** engage-proxy as operators run it, from the environment only, in front of `upstreamPort`. */
export function startEngageProxy(port, upstreamPort, env = {}) {
  if (!existsSync(CLI)) throw new Error('bench: dist/proxy-cli.js is missing: run `npm run build` first (the npm scripts do)');
  return start(process.execPath, [CLI], {
    port,
    env: { ENGAGE_WORKSPACE_ID: 'ENGAGEDEMO01', ENGAGE_PERSONALIZE_KEY: 'bench-key', ENGAGE_SDK_URL: `http://127.0.0.1:${upstreamPort}`, PORT: String(port), ...env },
  });
}

/** The benches' minimal upstream (servers/upstream.mjs), answering every request 200. */
export const startUpstream = (port) => start(process.execPath, [new URL('servers/upstream.mjs', import.meta.url).pathname, String(port)], { port });

/** A redis-server that keeps nothing on disk. */
export const startRedis = (port) => start('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { port });

/** CPU time (user + system, µs) of `pid` and every process below it (cluster workers, nginx's). */
export function cpuOfTree(pid) {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return 0;
  const fields = readFileSync(stat, 'utf8').split(') ')[1].split(' ');
  let total = (Number(fields[11]) + Number(fields[12])) * TICK_US;
  const children = `/proc/${pid}/task/${pid}/children`;
  if (existsSync(children)) for (const child of readFileSync(children, 'utf8').trim().split(/\s+/).filter(Boolean)) total += cpuOfTree(Number(child));
  return total;
}

let nextPort = 19_100 + (process.pid % 500) * 8;
/** A port for the next server, unlikely to collide with another run. */
export const freePort = () => nextPort++;

/**
 * A Redis Cluster of 3 masters + 3 replicas on `ports` (six), each node in its own directory
 * (nodes.conf is per node), joined by `redis-cli --cluster create`; resolves once every node says
 * cluster_state:ok.
 */
export async function startRedisCluster(ports) {
  const dirs = ports.map((port) => mkdtempSync(join(tmpdir(), `engage-bench-cluster-${port}-`)));
  const nodes = await Promise.all(
    ports.map((port, i) =>
      start(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          dirs[i],
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          '2000',
        ],
        { port },
      ),
    ),
  );
  execFileSync('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '1', '--cluster-yes'], { stdio: 'ignore' });
  const deadline = Date.now() + 20_000;
  while (!ports.every((port) => /cluster_state:ok/.test(redisCli(port, 'CLUSTER', 'INFO')))) {
    if (Date.now() > deadline) throw new Error('bench: the Redis Cluster did not reach cluster_state:ok');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    pids: nodes.map((node) => node.pid),
    ports,
    stop: async () => {
      await Promise.all(nodes.map((node) => node.stop()));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One redis-cli command's output. */
export const redisCli = (port, ...args) => execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' });

/**
 * What Redis ran since its last CONFIG RESETSTAT (INFO commandstats), without INFO, CONFIG and the
 * like: `scripts` (EVALSHA and EVAL calls: the store's calls) and `keyOps` (the commands those
 * scripts ran, SET, INCRBY…: the work per key).
 */
export function redisCommands(port) {
  let scripts = 0;
  let keyOps = 0;
  for (const match of redisCli(port, 'INFO', 'commandstats').matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm)) {
    if (/^(info|config|cluster|ping|command|hello|client|select|auth)/.test(match[1])) continue;
    if (/^eval/.test(match[1])) scripts += Number(match[2]);
    else keyOps += Number(match[2]);
  }
  return { scripts, keyOps };
}
