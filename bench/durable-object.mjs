// Durable Object store bench (`npm run bench:cloudflare`, `-- --quick`): in workerd (miniflare
// from npm) on this machine, the rate one EngageStore object sustains, and what the store adds to
// a proxy request over the memory store (p50/p99 at one connection, subrequests per request).
// Local workerd has no network between the Worker and the object: on Cloudflare each subrequest
// also crosses to wherever the object lives.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Miniflare } from 'miniflare';
import resolve from '@rollup/plugin-node-resolve';
import { rollup } from 'rollup';
import { request } from 'undici';
import { experienceBody, PAGE_HEADERS, percentile } from './experience-request.mjs';
import { freePort, startUpstream } from './processes.mjs';

const here = import.meta.dirname;
const quick = process.argv.includes('--quick');
const RATE_MS = quick ? 2_000 : 5_000;
const REQUESTS = quick ? 300 : 1_500;

// node-resolve for the Worker's '#dist/…' imports (package.json "imports"); the rest is relative.
const build = await rollup({ input: join(here, 'workers/durable-object-bench.js'), plugins: [resolve()] });
const script = (await build.generate({ format: 'es', inlineDynamicImports: true })).output[0].code;
await build.close();

const upstreamPort = freePort();
const upstream = await startUpstream(upstreamPort);
const mf = new Miniflare({
  modules: true,
  script,
  compatibilityDate: '2025-09-01',
  bindings: { WORKSPACE: 'BENCH', UPSTREAM: `http://127.0.0.1:${upstreamPort}` },
  durableObjects: { ENGAGE_STORE: { className: 'EngageStore', useSQLite: true } },
  host: '127.0.0.1',
  port: 0,
});
const origin = (await mf.ready).origin;

/** @returns {Promise<number>} what the Worker's route counted */
async function get(path) {
  const res = await request(`${origin}${path}`);
  if (res.statusCode !== 200) throw new Error(`bench: ${path} answered ${res.statusCode}: ${await res.body.text()}`);
  return /** @type {Promise<number>} */ (res.body.json());
}

// 1. Objects alone: one Worker invocation at a time, with 1, 4 or 16 loops in it, each making
// calls in a row. (Several invocations at once through miniflare's entry slowed every call here,
// whatever the number of objects: an artefact of the local dispatch, not of the object.)
console.log(`Durable Object store in workerd ${(await import('workerd/package.json', { with: { type: 'json' } })).default.version}, ${quick ? 'quick' : 'full'} run\n`);
console.log('1. store calls per second (a claim, then a commit, of one fresh key each)');
await get('/object?calls=200&shards=1&parallel=4'); // warm-up
for (const shards of [1, 4]) {
  for (const parallel of [1, 4, 16]) {
    let calls = 0;
    const until = performance.now() + RATE_MS;
    const started = performance.now();
    while (performance.now() < until) calls += await get(`/object?calls=100&shards=${shards}&parallel=${parallel}`);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `   ${shards} object${shards > 1 ? 's' : ' '}, ${String(parallel).padStart(2)} callers in parallel: ${Math.round(calls / seconds)
        .toLocaleString('en-US')
        .padStart(6)} calls/s`,
    );
  }
}

// 2. The proxy: one connection, fresh UUIDs, the memory store beside the object store.
console.log(`\n2. a proxy request at one connection (${REQUESTS} requests each, fresh UUIDs): the Durable Object store over the memory store`);
console.log('   store              events   p50 ms   p99 ms   +p50 ms   +p99 ms   subrequests/request');
for (const events of [1, 10]) {
  let memory;
  for (const kind of ['memory', 'do1', 'do4']) {
    const latencies = [];
    for (let i = 0; i < REQUESTS + 100; i++) {
      const body = experienceBody(events);
      const started = performance.now();
      const res = await request(`${origin}/${kind}/v1/experiences/events`, { method: 'POST', headers: PAGE_HEADERS, body });
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`bench: ${kind} answered ${res.statusCode}`);
      if (i === 99)
        await get('/subrequests'); // warm-up done
      else if (i >= 100) latencies.push(performance.now() - started);
    }
    await new Promise((done) => setTimeout(done, 200)); // the last commits, after the answers
    const subrequests = (await get('/subrequests')) / REQUESTS;
    latencies.sort((a, b) => a - b);
    const row = { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
    memory ??= row;
    const name = kind === 'memory' ? 'memory' : `Durable Object, ${kind.slice(2)} object${kind === 'do1' ? '' : 's'}`;
    const delta = kind === 'memory' ? '        –         –' : `${(row.p50 - memory.p50).toFixed(2).padStart(9)} ${(row.p99 - memory.p99).toFixed(2).padStart(9)}`;
    console.log(
      `   ${name.padEnd(22)} ${String(events).padStart(3)} ${row.p50.toFixed(2).padStart(8)} ${row.p99.toFixed(2).padStart(8)} ${delta}   ${subrequests.toFixed(2).padStart(6)}`,
    );
  }
}

await mf.dispose();
await upstream.stop();
