// Tracker bench, in Debian's Chromium against the real proxy and emulator on 127.0.0.1.
// Usage: npm run build && node bench/tracker.mjs [events=10000]
// Prints, side by side from one run, for our tracker and a naive baseline (one idb-keyval `set`
// + one `fetch` per event): main-thread µs per recorded event (first loop, and once the JIT has
// optimised the path), how long the recording task runs on after the loop, the longest long task
// after it, durable events per second, and the time to deliver everything. Numbers, not assertions.
import { chromium } from 'playwright-core';
import { startStack } from '../demo/stack.mjs';

const n = Number(process.argv[2] ?? 10_000);
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const args = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const stack = await startStack({ proxy: { rateLimits: { experienceEvents: {} } } });
const browser = await chromium.launch({ executablePath, args });
const received = async () => (await (await fetch(`${stack.emulatorUrl}/_emulator/experience-events`)).json());
const reset = () => fetch(`${stack.emulatorUrl}/_emulator/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

async function measure(kind) {
  await reset();
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${stack.url}/bench/pages/tracker.html`);
  await page.waitForFunction(() => window.benchReady === true);
  const result = await page.evaluate(([k, count]) => window.bench[k](count), [kind, n]);
  const { unique, duplicates } = await received();
  await page.context().close();
  return { ...result, unique, duplicates };
}

try {
  const ours = await measure('ours');
  const warm = await measure('oursWarm');
  const naive = await measure('naive');
  const ratio = (a, b) => (b > 0 ? `${(a / b).toFixed(1)}×` : 'n/a');
  const row = (label, o, v, better) => console.log(`${label.padEnd(36)} ${o.padStart(14)} ${v.padStart(14)} ${better.padStart(12)}`);
  console.log(`\nengage-sdk tracker vs naive (idb-keyval set + fetch per event), ${n} events, Chromium ${browser.version()}\n`);
  row('', 'engage-sdk', 'naive', 'ours better');
  row('main thread per recorded event', `${ours.callUs.toFixed(2)} µs`, `${naive.callUs.toFixed(2)} µs`, ratio(naive.callUs, ours.callUs));
  row('  the same after 3 warm-up loops', `${warm.callUs.toFixed(2)} µs`, '', ratio(naive.callUs, warm.callUs));
  row('recording task beyond the loop', `${ours.afterLoopMs.toFixed(1)} ms`, `${naive.afterLoopMs.toFixed(1)} ms`, ratio(naive.afterLoopMs, ours.afterLoopMs));
  row('longest long task after it', `${ours.longestTaskMs.toFixed(0)} ms`, `${naive.longestTaskMs.toFixed(0)} ms`, ratio(naive.longestTaskMs, ours.longestTaskMs));
  const oursRate = n / (ours.durableMs / 1000);
  const naiveRate = n / (naive.durableMs / 1000);
  row('durable events per second', `${Math.round(oursRate)}`, `${Math.round(naiveRate)}`, ratio(oursRate, naiveRate));
  row(`time to deliver ${n}`, `${(ours.deliverMs / 1000).toFixed(2)} s`, `${(naive.deliverMs / 1000).toFixed(2)} s`, ratio(naive.deliverMs, ours.deliverMs));
  row('unique events at the emulator', `${ours.unique}`, `${naive.unique}`, '');
  row('duplicates at the emulator', `${ours.duplicates}`, `${naive.duplicates}`, '');
  if (naive.delivered !== undefined) row('naive requests answered 2xx', '', `${naive.delivered}`, '');
} finally {
  await browser.close();
  await stack.close();
}
