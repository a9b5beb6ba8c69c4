// Emulator bench (not a test): requests/second for experience-event batches of 100 elements,
// in process (handler only) and over HTTP (client in the same process, so both share one core),
// and heap memory per 100,000 stored events. Bounded to ~15 s. Run after `npm run build`:
//   node bench/emulator.mjs
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createEmulator, serve } from '#dist/emulator.js';

// Memory needs a forced GC for a stable number: re-run self with --expose-gc once.
if (typeof globalThis.gc !== 'function') {
  const result = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

const WORKSPACE = 'ENGAGEDEMO01';
const headers = {
  'content-type': 'application/json',
  authorization: `Basic ${Buffer.from(`${WORKSPACE}:emulator-personalize-key`).toString('base64')}`,
  'svc-appkey': WORKSPACE,
};
const attributes = {
  cid: '66d55ae445921e4d35ae4368_F_T_WP_AB_2_P_0_AU_5A',
  experience: 'Test Server side experience',
  svc_locale_id: '0',
  svc_variation_id: '2',
  audience_name: 'All Users',
  audience_id: '5A',
  type: 'Web Personalization',
};
function batch(elements = 100) {
  const time = Math.floor(Date.now() / 1000) - 1;
  return JSON.stringify({
    elements: Array.from({ length: elements }, (_, i) => ({
      customer_id: `user-${i % 50}@example.com`,
      user_timezone_offset: 19800,
      actions: [{ action: 'SVC_PERSONALIZATION_MESSAGE_SHOWN', svc_event_uuid: crypto.randomUUID(), event_time: time, platform: 'web', attributes }],
    })),
  });
}

async function timed(seconds, concurrency, send) {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  let failed = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const status = await send();
      if (status === 200) done++;
      else failed++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { perSecond: done / ((performance.now() - started) / 1000), done, failed };
}

// One body serialised up front; each request stamps a fresh 8-hex prefix into its 100 UUIDs, so
// every event is new (stored, not deduplicated) and the bench measures the emulator, not the client.
const template = batch().replace(/"svc_event_uuid":"[0-9a-f]{8}/g, '"svc_event_uuid":"@@@@@@@@');
let next = 0;
const body = () => template.replaceAll('@@@@@@@@', (next++).toString(16).padStart(8, '0'));

// 1. Handler only (parse, validate, dedup, store), no sockets.
{
  const emulator = createEmulator({ limits: false });
  const url = 'http://emulator.local/v1/experiences/events';
  const result = await timed(4, 4, async () => (await emulator.handler(new Request(url, { method: 'POST', headers, body: body() }))).status);
  console.log(`handler   : ${result.perSecond.toFixed(0)} requests/s of 100 elements = ${(result.perSecond * 100).toFixed(0)} events/s (failed ${result.failed})`);
}

// 2. Over HTTP on 127.0.0.1 (client and server share this process).
{
  const emulator = createEmulator({ limits: false });
  const server = await serve(emulator.handler, { port: 0 });
  const url = `${server.url}/v1/experiences/events`;
  const result = await timed(5, 8, async () => {
    const res = await fetch(url, { method: 'POST', headers, body: body() });
    await res.arrayBuffer();
    return res.status;
  });
  console.log(
    `http      : ${result.perSecond.toFixed(0)} requests/s of 100 elements = ${(result.perSecond * 100).toFixed(0)} events/s (failed ${result.failed}, 8 concurrent)`,
  );
  const stored = emulator.getExperienceEvents();
  console.log(`            stored ${stored.unique} unique events, ${stored.duplicates} duplicates`);
  await server.close();
}

// 3. Heap per 100,000 stored events (fresh UUIDs, realistic attributes).
{
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const emulator = createEmulator({ limits: false });
  const url = 'http://emulator.local/v1/experiences/events';
  for (let i = 0; i < 1000; i++) {
    const res = await emulator.handler(new Request(url, { method: 'POST', headers, body: batch() }));
    if (res.status !== 200) throw new Error(`status ${res.status}`);
  }
  globalThis.gc();
  const after = process.memoryUsage().heapUsed;
  const unique = emulator.getExperienceEvents().unique;
  const mb = (after - before) / 1024 / 1024;
  console.log(
    `memory    : ${unique} events stored in ${mb.toFixed(1)} MiB heap = ${((after - before) / unique).toFixed(0)} bytes/event (${(mb * (100_000 / unique)).toFixed(1)} MiB per 100,000)`,
  );
}
