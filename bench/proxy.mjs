// Proxy bench (run after `npm run build`): `node bench/proxy.mjs [--quick]`.
//
// 1. Added latency: the same experience-event request sent to the emulator directly and through
//    the proxy (to that same emulator), alternating one by one in one run, so both see the same
//    machine state. Added latency = proxied − direct, at p50 and p99.
// 2. Requests/second on one core: the proxy handler alone (upstream answered in-process by a
//    stub `fetch`), so the number is the proxy's own cost, not the emulator's or the network's.
//    Also for re-sends answered from the dedup memory.
// Bounded: ~10-20 s on a shared 2-core machine.
import { performance } from 'node:perf_hooks';
import { createEmulator } from '../dist/emulator.js';
import { createProxy, serve } from '../dist/proxy.js';
import { experienceBody, ms, percentile as pct, throughput } from './experience-request.mjs';

const quick = process.argv.includes('--quick');
const LATENCY_ROUNDS = quick ? 300 : 1200;
const WARMUP = quick ? 50 : 200;
const THROUGHPUT_MS = quick ? 1500 : 3000;
const CONCURRENCY = 16;

const body = (actions = 1) => experienceBody(actions);

async function latency() {
  const emulator = createEmulator({});
  const upstream = await serve(emulator.handler, { port: 0 });
  const proxy = createProxy({
    workspaceId: emulator.workspaceId,
    keys: emulator.keys,
    sdkUrl: upstream.url,
    // The bench is one client sending thousands of events a minute: no budgets here.
    rateLimits: { experienceEvents: {} },
  });
  const front = await serve(proxy, { port: 0 });
  const directHeaders = {
    'content-type': 'application/json',
    authorization: `Basic ${Buffer.from(`${emulator.workspaceId}:${emulator.keys.personalize}`).toString('base64')}`,
    'svc-appkey': emulator.workspaceId,
  };
  const send = async (url, headers) => {
    const payload = body();
    const started = performance.now();
    const res = await fetch(`${url}/v1/experiences/events`, { method: 'POST', headers, body: payload });
    await res.arrayBuffer();
    const took = performance.now() - started;
    if (res.status !== 200) throw new Error(`bench: ${url} answered ${res.status}`);
    return took;
  };
  const proxied = { 'content-type': 'application/json' };
  for (let i = 0; i < WARMUP; i++) {
    await send(upstream.url, directHeaders);
    await send(front.url, proxied);
  }
  const direct = [];
  const through = [];
  const added = [];
  for (let i = 0; i < LATENCY_ROUNDS; i++) {
    // Alternate which goes first so neither always meets a warmer connection.
    let d, t;
    if (i % 2) {
      d = await send(upstream.url, directHeaders);
      t = await send(front.url, proxied);
    } else {
      t = await send(front.url, proxied);
      d = await send(upstream.url, directHeaders);
    }
    direct.push(d);
    through.push(t);
    added.push(t - d);
  }
  // Whole stack over HTTP (client, proxy and emulator share this one process).
  let done = 0;
  const until = performance.now() + THROUGHPUT_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const res = await fetch(`${front.url}/v1/experiences/events`, { method: 'POST', headers: proxied, body: body() });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`bench: proxy answered ${res.status}`);
        done++;
      }
    }),
  );
  const httpRps = done / ((performance.now() - started) / 1000);
  await front.close();
  await upstream.close();
  emulator.close();
  for (const list of [direct, through, added]) list.sort((a, b) => a - b);
  return { direct, through, added, httpRps };
}


async function handlerOnly() {
  const ok = JSON.stringify({ status: 'success', message: 'accepted', req_id: 'BENCH001' });
  const proxy = createProxy({
    workspaceId: 'ENGAGEDEMO01',
    keys: { personalize: 'bench-key' },
    sdkUrl: 'http://upstream.invalid',
    rateLimits: { experienceEvents: {} },
    fetch: async () => new Response(ok, { status: 200, headers: { 'content-type': 'application/json' } }),
  });
  const request = (payload) =>
    new Request('http://proxy.local/v1/experiences/events', { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
  const load = { durationMs: THROUGHPUT_MS, concurrency: CONCURRENCY };
  const fresh = await throughput('forwarded (1 event, fresh UUID)', proxy, () => request(body()), load);
  const batch = await throughput('forwarded (20 events per request)', proxy, () => request(body(20)), load);
  const replay = body(20);
  await proxy(request(replay));
  const dedup = await throughput('re-send answered from dedup memory (20 events)', proxy, () => request(replay), load);
  return [fresh, batch, dedup];
}

const { direct, through, added, httpRps } = await latency();
console.log(`proxy bench — Node ${process.version}, ${LATENCY_ROUNDS} alternating request pairs after ${WARMUP} warm-up pairs (HTTP on 127.0.0.1, keep-alive)`);
console.log('  percentile   direct to emulator   through proxy   difference   ratio   added per pair');
for (const p of [50, 90, 99]) {
  const d = pct(direct, p);
  const t = pct(through, p);
  console.log(`  p${String(p).padEnd(10)} ${ms(d).padStart(18)} ${ms(t).padStart(15)} ${ms(t - d).padStart(12)} ${(t / d).toFixed(2).padStart(6)}x ${ms(pct(added, p)).padStart(16)}`);
}
console.log(`\nwhole stack over HTTP (client + proxy + emulator in this one process), ${CONCURRENCY} concurrent: ${Math.round(httpRps)} req/s`);
console.log(`\nhandler throughput, one process (one core), ${CONCURRENCY} concurrent, upstream stubbed in-process:`);
for (const r of await handlerOnly()) {
  console.log(`  ${r.label.padEnd(48)} ${Math.round(r.rps).toString().padStart(7)} req/s   ${Math.round(r.perCpuSecond).toString().padStart(7)} req per CPU-second`);
}
