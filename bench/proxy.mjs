// Proxy bench, side by side in one run (`npm run bench:proxy`, `-- --quick` for a shorter one).
//
// Each contender is its own server process in front of one minimal upstream (bench/servers/
// upstream.mjs): the bare Node forward a team would write instead (node:http + JSON.parse +
// undici Pool + the key added: bench/servers/bare-forward.mjs), nginx where installed (printed,
// not a target), and engage-proxy as operators run it, from the environment only: memory store,
// Redis (redis-server's own CPU printed apart), a Redis Cluster of 3 masters + 3 replicas named by
// one node's URL, logs on (info, JSON) and off, one and two workers. For the Redis rows, the
// store's scripts Redis ran per request and the key operations inside them (INFO commandstats),
// and the reads Redis processed per request (INFO stats total_reads_processed: what a client
// writes together is one read, so this is the round trips, shared by the requests of one tick).
// This process is the load: fresh UUIDs in every body, 1 and 20 events per request.
//
// The figure that holds on a shared machine is the server's own CPU time per request (from
// /proc, the process and its children); then requests/s at 16 connections, and p50/p99 at one.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { experienceBody, PAGE_HEADERS, percentile } from './experience-request.mjs';
import { cpuOfTree, freePort, redisCli, redisCommands, start, startEngageProxy, startRedis, startRedisCluster, startUpstream } from './processes.mjs';

const quick = process.argv.includes('--quick');
// `--only=<part of a name>[|<another>…]`: the bare forward and the contenders whose name holds one
// of them; `--skip=` the same, to leave contenders out.
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split('|');
const skip = process.argv
  .find((arg) => arg.startsWith('--skip='))
  ?.slice('--skip='.length)
  .split('|');
const LOAD_MS = quick ? 2_500 : 5_000;
const WARM_MS = quick ? 800 : 1_500;
const LATENCY_REQUESTS = quick ? 1_000 : 3_000;
// Rounds in rotation, each figure the median of its rounds: on a shared 2-core machine one
// round's ratios moved by ±20 % from run to run. A target is judged on the rounds' own ratios
// (each contender against the bare forward of its round, measured a minute or less before it),
// their median and range printed: what drifts over a run moves both sides of a pair.
const ROUNDS = quick ? 1 : 5;
// `--connections=N`: the load's concurrency (the targets are set at 16); more concurrent requests
// put more claims in each of the cluster's merged scripts.
const CONNECTIONS = Number(process.argv.find((arg) => arg.startsWith('--connections='))?.slice('--connections='.length) ?? 16);
if (!Number.isInteger(CONNECTIONS) || CONNECTIONS < 1) throw new Error(`bench: --connections must be a positive integer (got ${CONNECTIONS})`);
const here = import.meta.dirname;

const upstreamPort = freePort();
const upstream = await startUpstream(upstreamPort);
const redisPort = freePort();
const redis = await startRedis(redisPort);
// A second Redis with a replica: the failover a deployment gets from one node, replication priced
// in, for the cluster (whose every master has one) to be set against like for like.
const replicatedPort = freePort();
const replicated = await startRedis(replicatedPort);
const replicaPort = freePort();
// Loading its copy straight from the socket, it writes no dump.rdb where the bench was started.
const replica = await start(
  'redis-server',
  ['--port', String(replicaPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--repl-diskless-load', 'on-empty-db'],
  {
    port: replicaPort,
  },
);
redisCli(replicaPort, 'REPLICAOF', '127.0.0.1', String(replicatedPort));
const cluster = await startRedisCluster(Array.from({ length: 6 }, () => freePort()));
// The first three nodes are the masters redis-cli made; the replicas only repeat their writes.
const clusterMasters = cluster.ports.slice(0, 3);
const scratch = mkdtempSync(join(tmpdir(), 'engage-bench-'));

// One client sending thousands of events a second: no budgets here.
const engage = (env) => (port) => startEngageProxy(port, upstreamPort, { ENGAGE_RATE_LIMITS: 'off', ENGAGE_LOG_LEVEL: 'off', ...env });
const REDIS = { ENGAGE_REDIS_URL: `redis://127.0.0.1:${redisPort}` };
const CLUSTER = { ENGAGE_REDIS_URL: `redis://127.0.0.1:${cluster.ports[0]}` };
const ONE = { pids: [redis.pid], masters: [redisPort], masterPids: [redis.pid] };
const REPLICATED = { pids: [replicated.pid, replica.pid], masters: [replicatedPort], masterPids: [replicated.pid] };
const SHARDED = { pids: cluster.pids, masters: clusterMasters, masterPids: cluster.pids.slice(0, 3) };

/**
 * @typedef {{ name: string, start: (port: number) => Promise<{ pid: number | undefined, stop: () => Promise<unknown> }>, floor?: boolean, target?: number, logs?: boolean, redis?: { pids: number[], masters: number[], masterPids: number[] } }} Contender
 */
/** The contenders, in the order printed; `target` marks the rows the targets apply to. */
const contenders = /** @type {(Contender | false)[]} */ ([
  {
    name: 'bare Node forward (node:http + undici Pool)',
    start: (port) => start(process.execPath, [join(here, 'servers/bare-forward.mjs'), String(port), String(upstreamPort)], { port }),
    floor: true,
  },
  existsSync('/usr/sbin/nginx') && { name: 'nginx (proxy_pass + proxy_set_header)', start: nginx },
  { name: 'engage-proxy, memory store', start: engage({}), target: 2 },
  // The crawler check's cost (isbot on every experience-events request): the same row without it.
  { name: 'engage-proxy, memory store, no crawler check (ENGAGE_BOTS=forward)', start: engage({ ENGAGE_BOTS: 'forward' }) },
  { name: 'engage-proxy, memory store, logs on (info, JSON)', start: engage({ ENGAGE_LOG_LEVEL: 'info', ENGAGE_LOG_FORMAT: 'json' }), logs: true },
  { name: 'engage-proxy, Redis store', start: engage(REDIS), target: 2.5, redis: ONE },
  { name: 'engage-proxy, Redis store + a replica', start: engage({ ENGAGE_REDIS_URL: `redis://127.0.0.1:${replicatedPort}` }), redis: REPLICATED },
  { name: 'engage-proxy, Redis Cluster (3 + 3), one node’s URL', start: engage(CLUSTER), redis: SHARDED },
  { name: 'engage-proxy, Redis store, ENGAGE_WORKERS=2', start: engage({ ...REDIS, ENGAGE_WORKERS: '2' }), redis: ONE },
]).filter(
  /** @returns {c is Contender} */ (c) => c && (c.floor || ((!only || only.some((part) => c.name.includes(part))) && !skip?.some((part) => c.name.includes(part)))),
);

async function nginx(port) {
  const dir = mkdtempSync(join(scratch, 'nginx-'));
  const auth = Buffer.from('ENGAGEDEMO01:bench-key').toString('base64');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off; worker_processes 1; error_log stderr error; pid ${dir}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  upstream engage { server 127.0.0.1:${upstreamPort}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://engage; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_set_header Authorization "Basic ${auth}"; proxy_set_header SVC-APPKEY ENGAGEDEMO01;
    }
  }
}
`,
  );
  return start('/usr/sbin/nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { port });
}

/** `connections` loops posting fresh bodies for `ms`; every answer must be 200. */
async function load(pool, events, connections, ms) {
  let done = 0;
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const body = experienceBody(events);
        const res = await pool.request({ path: '/v1/experiences/events', method: 'POST', headers: PAGE_HEADERS, body });
        await res.body.text();
        if (res.statusCode !== 200) throw new Error(`bench: answered ${res.statusCode}`);
        done++;
      }
    }),
  );
  return done;
}

async function measure(contender, events) {
  const port = freePort();
  const server = await contender.start(port);
  const url = `http://127.0.0.1:${port}`;
  try {
    const pool = new Pool(url, { connections: CONNECTIONS });
    await load(pool, events, CONNECTIONS, WARM_MS);
    const redisCpu = (pids = contender.redis?.pids ?? []) => pids.reduce((sum, pid) => sum + cpuOfTree(pid), 0);
    const reads = () => (contender.redis?.masters ?? []).reduce((sum, port) => sum + Number(/total_reads_processed:(\d+)/.exec(redisCli(port, 'INFO', 'stats'))?.[1]), 0);
    for (const port of contender.redis?.masters ?? []) redisCli(port, 'CONFIG', 'RESETSTAT');
    const reads0 = reads();
    const cpu0 = cpuOfTree(server.pid);
    const redis0 = redisCpu();
    const masters0 = redisCpu(contender.redis?.masterPids);
    const started = performance.now();
    const done = await load(pool, events, CONNECTIONS, LOAD_MS);
    const seconds = (performance.now() - started) / 1000;
    const cpuUs = (cpuOfTree(server.pid) - cpu0) / done;
    const redisUs = (redisCpu() - redis0) / done;
    const mastersUs = (redisCpu(contender.redis?.masterPids) - masters0) / done;
    // The INFO calls themselves are one read each per master: left out.
    const masters = contender.redis?.masters ?? [];
    const counted = masters.map(redisCommands);
    const scripts = counted.reduce((sum, c) => sum + c.scripts, 0) / done;
    const keyOps = counted.reduce((sum, c) => sum + c.keyOps, 0) / done;
    const trips = (reads() - reads0 - masters.length) / done;
    await pool.close();
    const single = new Pool(url, { connections: 1 });
    await load(single, events, 1, 300);
    const latencies = [];
    for (let i = 0; i < LATENCY_REQUESTS; i++) {
      const sent = performance.now();
      const res = await single.request({ path: '/v1/experiences/events', method: 'POST', headers: PAGE_HEADERS, body: experienceBody(events) });
      await res.body.text();
      latencies.push(performance.now() - sent);
    }
    await single.close();
    latencies.sort((a, b) => a - b);
    const redisFigures = contender.redis
      ? { redisUs, mastersUs, scripts, keyOps, trips }
      : { redisUs: undefined, mastersUs: undefined, scripts: undefined, keyOps: undefined, trips: undefined };
    return { cpuUs, ...redisFigures, rps: done / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    await server.stop();
  }
}

console.log(
  `proxy bench — Node ${process.version}, ${LOAD_MS / 1000} s at ${CONNECTIONS} connections and ${LATENCY_REQUESTS} requests at 1 connection per row, fresh UUIDs; median of ${ROUNDS} round${ROUNDS > 1 ? 's' : ''} in rotation`,
);
const rounds = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const events of [1, 20]) {
    for (const contender of contenders) (rounds[`${contender.name}|${events}`] ??= []).push(await measure(contender, events));
  }
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = Object.fromEntries(
  Object.entries(rounds).map(([name, runs]) => [
    name,
    Object.fromEntries(Object.keys(runs[0]).map((field) => [field, runs[0][field] === undefined ? undefined : median(runs.map((run) => run[field]))])),
  ]),
);
for (const events of [1, 20]) {
  const floor = results[`${contenders[0].name}|${events}`];
  console.log(`\n${events} event${events > 1 ? 's' : ''} per request`);
  console.log(
    `  contender                                             CPU µs/req                   ×bare   req/s @${String(CONNECTIONS).padEnd(3)}  % of bare   p50 ms   p99 ms   p99 − bare   Redis scripts/req (key ops)   reads/req`,
  );
  for (const contender of contenders) {
    const r = results[`${contender.name}|${events}`];
    const redisNote =
      r.redisUs === undefined
        ? ''
        : r.mastersUs < r.redisUs - 1
          ? ` (+${r.redisUs.toFixed(0)} in redis, ${r.mastersUs.toFixed(0)} on masters)`
          : ` (+${r.redisUs.toFixed(0)} in redis-server)`;
    const redisCounts = r.scripts !== undefined ? `${r.scripts.toFixed(2).padStart(17)} (${r.keyOps.toFixed(1).padStart(5)})   ${r.trips.toFixed(2).padStart(9)}` : '';
    console.log(
      `  ${contender.name.padEnd(52)} ${r.cpuUs.toFixed(0).padStart(7)}${redisNote.padEnd(25)} ${(r.cpuUs / floor.cpuUs).toFixed(2).padStart(5)}× ${r.rps.toFixed(0).padStart(8)} ${((100 * r.rps) / floor.rps).toFixed(0).padStart(9)} % ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${(r.p99 - floor.p99 >= 0 ? '+' : '') + (r.p99 - floor.p99).toFixed(2).padStart(6)}   ${redisCounts}`,
    );
  }
}
const row = (name, events) => results[`${name}|${events}`];
/** `compare(contender's round, bare's round)` for each round: the median and the range. */
function paired(name, events, compare) {
  const floor = rounds[`${contenders[0].name}|${events}`];
  const values = rounds[`${name}|${events}`].map((run, i) => compare(run, floor[i]));
  // median() sorts in place: the ends are then the range.
  return { median: median(values), min: values[0], max: values[values.length - 1] };
}
console.log(`\ntargets (engage-proxy against the bare forward of the same round; ${ROUNDS > 1 ? `median of ${ROUNDS} rounds, range in brackets` : 'one round'}):`);
for (const contender of contenders.filter(/** @returns {c is Contender & { target: number }} */ (c) => !!c.target)) {
  for (const events of [1, 20]) {
    const cpu = paired(contender.name, events, (r, floor) => r.cpuUs / floor.cpuUs);
    const rps = paired(contender.name, events, (r, floor) => (100 * r.rps) / floor.rps);
    const p99 = paired(contender.name, events, (r, floor) => r.p99 - floor.p99);
    const mark = (ok) => (ok ? 'met' : 'MISSED');
    const range = ({ min, max }, digits) => (ROUNDS > 1 ? ` [${min.toFixed(digits)}–${max.toFixed(digits)}]` : '');
    console.log(
      `  ${contender.name}, ${events} ev: CPU ${cpu.median.toFixed(2)}×${range(cpu, 2)} (≤ ${contender.target}×: ${mark(cpu.median <= contender.target)}), req/s ${rps.median.toFixed(0)} %${range(rps, 0)} (≥ 50 %: ${mark(rps.median >= 50)}), p99 ${p99.median >= 0 ? '+' : ''}${p99.median.toFixed(2)} ms${range(p99, 2)} (≤ +1 ms: ${mark(p99.median <= 1)})`,
    );
  }
}
// Issue 33's targets for the cluster, 20-event requests: at most one store call per master, its
// CPU (proxy + every node) within 1.5× one Redis's (proxy + redis-server) of the same round, and
// twice the 20 % of the bare forward's req/s it had before.
const CLUSTER_ROW = 'engage-proxy, Redis Cluster (3 + 3), one node’s URL';
if (row(CLUSTER_ROW, 20) && row('engage-proxy, Redis store', 20)) {
  const one = rounds['engage-proxy, Redis store|20'];
  const cpu = paired(CLUSTER_ROW, 20, (r, _floor) => r.cpuUs + r.redisUs).median;
  const ratios = rounds[`${CLUSTER_ROW}|20`].map((r, i) => (r.cpuUs + r.redisUs) / (one[i].cpuUs + one[i].redisUs));
  const ratio = median([...ratios]);
  const rps = paired(CLUSTER_ROW, 20, (r, floor) => (100 * r.rps) / floor.rps);
  const scripts = row(CLUSTER_ROW, 20).scripts;
  const mark = (ok) => (ok ? 'met' : 'MISSED');
  console.log(
    `  Redis Cluster (3 + 3), 20 ev: ${scripts.toFixed(2)} scripts/req (≤ 3: ${mark(scripts <= 3)}); proxy + cluster CPU ${cpu.toFixed(0)} µs/req, ${ratio.toFixed(2)}× one Redis's [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}] (≤ 1.5×: ${mark(ratio <= 1.5)}); req/s ${rps.median.toFixed(0)} % of bare [${rps.min.toFixed(0)}–${rps.max.toFixed(0)}] (≥ 40 %: ${mark(rps.median >= 40)})${CONNECTIONS === 16 ? '' : ` (the targets are set at 16 connections; this run: ${CONNECTIONS})`}`,
  );
  // Not a target: the same against a Redis that has a replica too, as every master of the cluster has.
  const replicated = rounds['engage-proxy, Redis store + a replica|20'];
  if (replicated) {
    const like = median(rounds[`${CLUSTER_ROW}|20`].map((r, i) => (r.cpuUs + r.redisUs) / (replicated[i].cpuUs + replicated[i].redisUs)));
    const replicas = median(rounds[`${CLUSTER_ROW}|20`].map((r) => r.redisUs - r.mastersUs));
    const one = median(replicated.map((r) => r.redisUs - r.mastersUs));
    console.log(
      `  Redis Cluster (3 + 3), 20 ev, against one Redis + a replica: ${like.toFixed(2)}× (its replicas ${replicas.toFixed(0)} µs/req; one Redis's replica ${one.toFixed(0)})`,
    );
  }
}
const logs = contenders.find((c) => c.logs);
for (const events of logs && row('engage-proxy, memory store', 1) ? [1, 20] : []) {
  const on = row(/** @type {Contender} the loop runs only when found */ (logs).name, events).cpuUs;
  const off = row('engage-proxy, memory store', events).cpuUs;
  console.log(
    `  logs on vs off, ${events} ev: CPU ${on.toFixed(0)} vs ${off.toFixed(0)} µs/req, ${(100 * (on / off - 1)).toFixed(1)} % (within 10 %: ${Math.abs(on / off - 1) <= 0.1 ? 'met' : 'MISSED'})`,
  );
}
for (const events of row('engage-proxy, Redis store, ENGAGE_WORKERS=2', 1) && row('engage-proxy, Redis store', 1) ? [1, 20] : []) {
  const one = row('engage-proxy, Redis store', events).rps;
  const two = row('engage-proxy, Redis store, ENGAGE_WORKERS=2', events).rps;
  console.log(
    `  two workers vs one (Redis), ${events} ev: ${two.toFixed(0)} vs ${one.toFixed(0)} req/s (${(two / one).toFixed(2)}×; this process's load shares the same 2 cores)`,
  );
}
await Promise.all([upstream.stop(), redis.stop(), replica.stop(), replicated.stop(), cluster.stop()]);
rmSync(scratch, { recursive: true, force: true });
