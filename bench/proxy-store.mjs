// Proxy store bench (run after `npm run build`; needs Debian's redis-server): `node bench/proxy-store.mjs [--quick]`.
//
// The memory store against the Redis store, measured side by side in one run:
// 1. Added latency per request of 20 events: the emulator called directly, through a proxy on the
//    memory store and through a proxy on the Redis store, rotating which goes first each round.
//    Added latency = proxied − direct at the same percentile.
// 2. Requests per second on one core: the handler alone (upstream stubbed in-process), so the
//    number is the proxy's and the store's cost, not the emulator's.
// 3. Redis round trips per request: the Redis client talks through a TCP relay that counts what
//    the client writes, one write per pipelined batch, over sequential requests.
// Bounded: ~20-30 s on a shared 2-core machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEmulator } from '#dist/emulator.js';
import { createMemoryStore, createProxy, serve } from '#dist/proxy.js';
import { connectRedisStore } from '#dist/proxy-redis.js';
import { experienceBody, ms, PAGE_HEADERS, percentile as pct, throughput } from './experience-request.mjs';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 300 : 1000;
const WARMUP = quick ? 50 : 200;
const THROUGHPUT_MS = quick ? 1500 : 3000;
const CONCURRENCY = 16;
const EVENTS = 20;

const body = (actions = EVENTS) => experienceBody(actions);

async function freePort() {
  const server = createServer();
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'engage-bench-redis-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  child.on('error', (error) => {
    console.error(`redis-server could not start (${error.message}): apt-get install -y --no-install-recommends redis-server`);
    process.exit(1);
  });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      }).on('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { port, stop: () => (child.kill(), rmSync(dir, { recursive: true, force: true })) };
}

/** A TCP relay in front of Redis that counts the client's writes (one per pipelined batch). */
async function countingRelay(targetPort) {
  const counter = { writes: 0 };
  const server = createServer((socket) => {
    const upstream = connect(targetPort, '127.0.0.1');
    socket.on('data', (chunk) => {
      counter.writes++;
      upstream.write(chunk);
    });
    upstream.pipe(socket);
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
  });
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)));
  return {
    port: /** @type {import('node:net').AddressInfo} */ (server.address()).port,
    counter,
    close: () => new Promise((resolve) => (server.close(resolve), server.emit('close'))),
  };
}

const redisServer = await startRedis();
const relay = await countingRelay(redisServer.port);
// Latency and throughput use a direct connection; only the round-trip count goes through the relay.
const redis = await connectRedisStore(`redis://127.0.0.1:${redisServer.port}`);
const counted = await connectRedisStore(`redis://127.0.0.1:${relay.port}`);
const emulator = createEmulator({});
const upstream = await serve(emulator.handler, { port: 0 });
// The bench is one client sending thousands of events a minute: no per-client budget. The
// workspace budget stays (a generous one), so each request still pays its counter increment.
const limits = { experienceEvents: { workspace: [{ limit: 1e9, windowMs: 60_000 }] } };
const makeProxy = (store, extra = {}) =>
  createProxy({ workspaceId: emulator.workspaceId, keys: emulator.keys, sdkUrl: upstream.url, rateLimits: limits, store, ...extra });
const memoryFront = await serve(makeProxy(createMemoryStore()), { port: 0 });
const redisFront = await serve(makeProxy(redis.store), { port: 0 });

const directHeaders = {
  'content-type': 'application/json',
  authorization: `Basic ${Buffer.from(`${emulator.workspaceId}:${emulator.keys.personalize}`).toString('base64')}`,
  'svc-appkey': emulator.workspaceId,
};
const targets = [
  { name: 'direct', url: upstream.url, headers: directHeaders, times: /** @type {number[]} */ ([]) },
  { name: 'memory', url: memoryFront.url, headers: PAGE_HEADERS, times: /** @type {number[]} */ ([]) },
  { name: 'redis', url: redisFront.url, headers: PAGE_HEADERS, times: /** @type {number[]} */ ([]) },
];
async function send(target) {
  const payload = body();
  const started = performance.now();
  const res = await fetch(`${target.url}/v1/experiences/events`, { method: 'POST', headers: target.headers, body: payload });
  await res.arrayBuffer();
  const took = performance.now() - started;
  if (res.status !== 200) throw new Error(`bench: ${target.name} answered ${res.status}`);
  return took;
}
for (let i = 0; i < WARMUP; i++) for (const target of targets) await send(target);
for (let i = 0; i < ROUNDS; i++) {
  // Rotate the order so no target always meets the warmest connection or the freshest GC.
  for (let j = 0; j < targets.length; j++) {
    const target = targets[(i + j) % targets.length];
    target.times.push(await send(target));
  }
}
for (const target of targets) target.times.sort((a, b) => a - b);

// Round trips: sequential requests through the Redis-backed handler, upstream stubbed.
const ok = JSON.stringify({ status: 'success', message: 'accepted', req_id: 'BENCH001' });
const stubbed = (store) =>
  makeProxy(store, { sdkUrl: 'http://upstream.invalid', fetch: async () => new Response(ok, { status: 200, headers: { 'content-type': 'application/json' } }) });
const request = (payload) => new Request('http://proxy.local/v1/experiences/events', { method: 'POST', headers: PAGE_HEADERS, body: payload });
const countedHandler = stubbed(counted.store);
const SEQUENTIAL = 200;
const before = relay.counter.writes;
for (let i = 0; i < SEQUENTIAL; i++) await (await countedHandler(request(body()), { clientAddress: '127.0.0.1' })).arrayBuffer();
const roundTrips = (relay.counter.writes - before) / SEQUENTIAL;
const replay = body();
await countedHandler(request(replay), { clientAddress: '127.0.0.1' });
const beforeReplay = relay.counter.writes;
for (let i = 0; i < SEQUENTIAL; i++) await (await countedHandler(request(replay), { clientAddress: '127.0.0.1' })).arrayBuffer();
const replayRoundTrips = (relay.counter.writes - beforeReplay) / SEQUENTIAL;

const load = { durationMs: THROUGHPUT_MS, concurrency: CONCURRENCY };
const memoryRps = await throughput('memory store', stubbed(createMemoryStore()), () => request(body()), load);
const redisRps = await throughput('Redis store', stubbed(redis.store), () => request(body()), load);

console.log(`proxy store bench — Node ${process.version}, ${ROUNDS} rounds of ${EVENTS}-event requests after ${WARMUP} warm-up rounds (HTTP on 127.0.0.1, keep-alive)`);
console.log('  percentile   direct to emulator   memory store (added)       Redis store (added)');
for (const p of [50, 90, 99]) {
  const [d, m, r] = targets.map((target) => pct(target.times, p));
  console.log(`  p${String(p).padEnd(10)} ${ms(d).padStart(18)}   ${ms(m).padStart(10)} (${ms(m - d).padStart(9)})   ${ms(r).padStart(10)} (${ms(r - d).padStart(9)})`);
}
console.log(`\nhandler alone, one process (one core), ${CONCURRENCY} concurrent, ${EVENTS} events per request, upstream stubbed:`);
console.log(`  memory store ${Math.round(memoryRps.rps).toString().padStart(7)} req/s   ${Math.round(memoryRps.perCpuSecond).toString().padStart(7)} req per CPU-second`);
console.log(
  `  Redis store  ${Math.round(redisRps.rps).toString().padStart(7)} req/s   ${Math.round(redisRps.perCpuSecond).toString().padStart(7)} req per CPU-second (Node's share; redis-server runs on the other core)`,
);
console.log(
  `\nRedis round trips per request (client writes counted by a relay, ${SEQUENTIAL} sequential requests): ${roundTrips.toFixed(2)} for new events, ${replayRoundTrips.toFixed(2)} for a re-send answered from memory`,
);

await Promise.all([memoryFront.close(), redisFront.close(), upstream.close()]);
emulator.close();
await Promise.all([redis.close(), counted.close()]);
await relay.close();
redisServer.stop();
