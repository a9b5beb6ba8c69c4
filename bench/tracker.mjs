// Tracker bench, in Debian's Chromium against the real proxy and emulator on 127.0.0.1.
// Usage: npm run build && node bench/tracker.mjs [events=10000]
// Prints, side by side from one run, for this build's tracker, a baseline build of the tracker
// (by default `main`, see below) and a naive baseline (one idb-keyval `set` + one `fetch` per
// event): main-thread µs per recorded event (first loop, and once the JIT has optimised the path),
// how long the recording task runs on after the loop, the longest long task after it, durable
// events per second, and the time to deliver everything. Numbers, not assertions.
//
// The baseline build: bench/baseline.mjs (BASELINE_REF, BASELINE_DIST).
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../demo/chromium.mjs';
import { startStackWithBaseline } from './baseline.mjs';

const n = Number(process.argv[2] ?? 10_000);

const { stack, baseline } = await startStackWithBaseline();
const launch = chromiumLaunchOptions();
// gc() for the warm loop: each of its rounds starts from a collected heap (tracker-bench.js).
launch.args.push('--js-flags=--expose-gc');
const browser = await chromium.launch(launch);
const received = async () => await (await fetch(`${stack.emulatorUrl}/_emulator/experience-events`)).json();
const reset = () => fetch(`${stack.emulatorUrl}/_emulator/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

const RUNS = Number(process.env.RUNS ?? 3);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(kind, build = 'this', count = n) {
  await reset();
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${stack.url}/bench/pages/tracker.html?build=${build}`);
  await page.waitForFunction(() => window.benchReady === true);
  const result = await page.evaluate(([k, events]) => window.bench[k](events), [kind, count]);
  const { unique, duplicates } = await received();
  await page.context().close();
  return { ...result, unique, duplicates };
}

try {
  // Alternated, so that a noisy neighbour on the machine hits both builds alike; each figure is the
  // run with the median µs per event of RUNS (one loop is a sample of one: 2× apart on a busy machine).
  /** @type {Record<'ours' | 'base' | 'warm' | 'baseWarm', Awaited<ReturnType<typeof measure>>[]>} */
  const runs = { ours: [], base: [], warm: [], baseWarm: [] };
  for (let i = 0; i < RUNS; i++) {
    runs.ours.push(await measure('ours'));
    if (baseline) runs.base.push(await measure('ours', 'baseline'));
    runs.warm.push(await measure('oursWarm'));
    if (baseline) runs.baseWarm.push(await measure('oursWarm', 'baseline'));
  }
  const mid = (list) => list.sort((a, b) => a.callUs - b.callUs)[list.length >> 1];
  const [ours, base, warm, baseWarm] = [runs.ours, runs.base, runs.warm, runs.baseWarm].map(mid);
  const naive = await measure('naive');
  const ratio = (a, b) => (b > 0 ? `${(a / b).toFixed(1)}×` : 'n/a');
  const row = (label, o, b, v, better) => console.log(`${label.padEnd(36)} ${o.padStart(14)} ${(b ?? '').padStart(14)} ${v.padStart(14)} ${better.padStart(12)}`);
  const us = (r) => (r ? `${r.callUs.toFixed(2)} µs` : '');
  console.log(`\nengage-sdk tracker (this build, baseline build, naive), ${n} events, Chromium ${browser.version()}\n`);
  row('', 'this build', baseline ? 'baseline' : '', 'naive', 'this vs naive');
  row('main thread per recorded event', us(ours), us(base), us(naive), ratio(naive.callUs, ours.callUs));
  row('  the same after 3 warm-up loops', us(warm), us(baseWarm), '', ratio(naive.callUs, warm.callUs));
  const ms = (r, key, digits = 1) => (r ? `${r[key].toFixed(digits)} ms` : '');
  row('recording task beyond the loop', ms(ours, 'afterLoopMs'), ms(base, 'afterLoopMs'), ms(naive, 'afterLoopMs'), ratio(naive.afterLoopMs, ours.afterLoopMs));
  row(
    'longest long task after it',
    ms(ours, 'longestTaskMs', 0),
    ms(base, 'longestTaskMs', 0),
    ms(naive, 'longestTaskMs', 0),
    ratio(naive.longestTaskMs, ours.longestTaskMs),
  );
  const rate = (r) => n / (r.durableMs / 1000);
  row('durable events per second', `${Math.round(rate(ours))}`, base ? `${Math.round(rate(base))}` : '', `${Math.round(rate(naive))}`, ratio(rate(ours), rate(naive)));
  const s = (r) => (r ? `${(r.deliverMs / 1000).toFixed(2)} s` : '');
  row(`time to deliver ${n}`, s(ours), s(base), s(naive), ratio(naive.deliverMs, ours.deliverMs));
  row('unique events at the emulator', `${ours.unique}`, base ? `${base.unique}` : '', `${naive.unique}`, '');
  row('duplicates at the emulator', `${ours.duplicates}`, base ? `${base.duplicates}` : '', `${naive.duplicates}`, '');
  if (naive.delivered !== undefined) row('naive requests answered 2xx', '', '', `${naive.delivered}`, '');

  // Bursts on a tracker with the default options (delivery right after), this build beside the baseline.
  console.log(`\nafter a burst of shown() calls, default options, until all is delivered (${RUNS} runs each; long tasks ≥ 50 ms and the longest, in ms)`);
  console.log(`${'burst'.padEnd(10)} ${'this build'.padStart(40)} ${(baseline ? 'baseline' : '').padStart(40)}`);
  for (const size of [100, 1_000, 10_000]) {
    const cell = (runs) =>
      runs ? `${runs.map((r) => `${r.longTasks}/${r.longestTaskMs.toFixed(0)}`).join(' ')}; ${median(runs.map((r) => r.callUs)).toFixed(2)} µs/call` : '';
    const ours = [];
    const base = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(await measure('burst', 'this', size));
      if (baseline) base.push(await measure('burst', 'baseline', size));
    }
    console.log(`${String(size).padEnd(10)} ${cell(ours).padStart(40)} ${cell(baseline && base).padStart(40)}`);
  }
} finally {
  await browser.close();
  await stack.close();
}
