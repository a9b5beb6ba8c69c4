// The two ways issue 33 named of sending a 20-event request's claims and commit to a Redis Cluster
// at one network exchange per master, side by side on one 3 + 3 cluster (`node bench/cluster-calls.mjs`,
// after `npm run build`):
//
// - scripts: createRedisStore as shipped: one script per master a call touches (allow-cross-slot-keys),
//   the owner's marker per master, the claims of one event-loop turn merged into one script per
//   master, commits of 2 ms batched;
// - plain commands: one `SET key c:<owner> NX GET PX` per event at the claim and one `SET key a PX`
//   per event at the commit, all issued in one tick, so node-redis writes each node's share in one
//   socket write (its per-node pipelining): the simplest correct per-key layout.
//
// Printed per 20-event request: this process's CPU (the client side: node-redis and the store),
// the masters' and the replicas' CPU, and the commands and reads (network exchanges) on the masters.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createCluster } from 'redis';
import { createRedisStore } from '#dist/proxy-redis.js';
import { cpuOfTree, freePort, redisCli, startRedisCluster } from './processes.mjs';

const MS = process.argv.includes('--quick') ? 2_000 : 5_000;
const CONCURRENCY = 16;
const EVENTS = 20;
const ROUNDS = 3;

const cluster = await startRedisCluster(Array.from({ length: 6 }, () => freePort()));
const masters = cluster.ports.slice(0, 3);
const client = await createCluster({ rootNodes: [{ url: `redis://127.0.0.1:${cluster.ports[0]}` }], defaults: { disableOfflineQueue: true } })
  .on('error', () => {})
  .connect();

const key = () => `engage:ev:ENGAGEDEMO01:${randomUUID()}`;
const variants = {
  scripts: (() => {
    const store = createRedisStore(client, { prefix: '' });
    return async () => {
      const keys = Array.from({ length: EVENTS }, key);
      const owner = randomUUID().slice(0, 20);
      await store.claim(keys, owner, 39_000, 86_400_000);
      await store.commit(keys, 86_400_000, owner);
    };
  })(),
  'plain commands': async () => {
    const keys = Array.from({ length: EVENTS }, key);
    const mine = `c:${randomUUID().slice(0, 20)}`;
    await Promise.all(keys.map((k) => client.set(k, mine, { condition: 'NX', GET: true, expiration: { type: 'PX', value: 39_000 } })));
    await Promise.all(keys.map((k) => client.set(k, 'a', { expiration: { type: 'PX', value: 86_400_000 } })));
  },
};

async function run(request) {
  for (const port of masters) redisCli(port, 'CONFIG', 'RESETSTAT');
  const stat = (port, field) => Number(new RegExp(`${field}:(\\d+)`).exec(redisCli(port, 'INFO', 'stats'))?.[1]);
  const reads0 = masters.reduce((sum, port) => sum + stat(port, 'total_reads_processed'), 0);
  const own0 = process.cpuUsage();
  const masters0 = cluster.pids.slice(0, 3).reduce((sum, pid) => sum + cpuOfTree(pid), 0);
  const replicas0 = cluster.pids.slice(3).reduce((sum, pid) => sum + cpuOfTree(pid), 0);
  let done = 0;
  const until = performance.now() + MS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await request();
        done++;
      }
    }),
  );
  const own = process.cpuUsage(own0);
  const commands = masters.reduce((sum, port) => {
    for (const match of redisCli(port, 'INFO', 'commandstats').matchAll(/^cmdstat_(\w+):calls=(\d+)/gm))
      if (/^(eval|evalsha|set)$/.test(match[1])) sum += Number(match[2]);
    return sum;
  }, 0);
  return {
    clientUs: (own.user + own.system) / done,
    mastersUs: (cluster.pids.slice(0, 3).reduce((sum, pid) => sum + cpuOfTree(pid), 0) - masters0) / done,
    replicasUs: (cluster.pids.slice(3).reduce((sum, pid) => sum + cpuOfTree(pid), 0) - replicas0) / done,
    commands: commands / done,
    reads: (masters.reduce((sum, port) => sum + stat(port, 'total_reads_processed'), 0) - reads0 - 2 * masters.length) / done,
    rps: done / (MS / 1000),
  };
}

const results = {};
for (const request of Object.values(variants)) await run(request); // warm: scripts cached, JIT
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, request] of Object.entries(variants)) (results[name] ??= []).push(await run(request));
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`claim + commit of ${EVENTS} events on a 3 + 3 cluster, ${CONCURRENCY} concurrent, ${MS / 1000} s × ${ROUNDS} rounds (medians), per request:`);
console.log('  variant            client CPU µs   masters µs   replicas µs   commands   reads (masters)   requests/s');
for (const [name, runs] of Object.entries(results)) {
  const m = Object.fromEntries(Object.keys(runs[0]).map((field) => [field, median(runs.map((run) => run[field]))]));
  console.log(
    `  ${name.padEnd(16)} ${m.clientUs.toFixed(0).padStart(13)} ${m.mastersUs.toFixed(0).padStart(12)} ${m.replicasUs.toFixed(0).padStart(13)} ${m.commands.toFixed(2).padStart(10)} ${m.reads.toFixed(2).padStart(17)} ${m.rps.toFixed(0).padStart(12)}`,
  );
}
await client.close();
await cluster.stop();
