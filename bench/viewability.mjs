// Viewability bench (issue 46), in Debian's Chromium against the real proxy and emulator.
// Usage: npm run bench:viewability (builds first), or node bench/viewability.mjs [10,100,1000]
// A listing of N tiles, each a placement (bench/pages/listing.html), opened with no script, with a
// bare IntersectionObserver on every tile (the floor a hand-written viewability script pays), with
// this build's script tag and with the baseline build's, side by side in one run. For each:
// main-thread task time for load + 3 s, then for 4 s of scrolling to the bottom (CDP
// Performance.getMetrics TaskDuration), and the JS heap after a collection before the scroll
// (placements nobody has seen yet) and at the end; the
// median of RUNS (3) runs, each in a fresh context. Numbers, not assertions.
//
// SHADOW=1: the tiles in web components, ten to an open shadow root (issue 52's listing: 1,000
// placements over 100 components); the baseline build does not see into them, so its row is the
// cost of not counting them.
//
// The baseline build: bench/baseline.mjs (BASELINE_REF, BASELINE_DIST).
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions, PERSON_USER_AGENT } from '../demo/chromium.mjs';
import { startStackWithBaseline } from './baseline.mjs';

const sizes = (process.argv[2] ?? '10,100,1000').split(',').map(Number);
const RUNS = Number(process.env.RUNS ?? 3);

const { stack, baseline } = await startStackWithBaseline();
const browser = await chromium.launch(chromiumLaunchOptions());
const version = browser.version();
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One run: { load, scroll } main-thread ms and heap KB for `mode` with `n` tiles. */
async function run(mode, n) {
  const context = await browser.newContext({ userAgent: PERSON_USER_AGENT, viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  // CPU time of the page's main thread (Playwright's protocol types lack the parameter).
  await cdp.send('Performance.enable', /** @type {any} */ ({ timeMetric: 'threadTicks' }));
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  // Task time, and the part of it a script can cause: its own run, and the style and layout it forces.
  const times = (m) => [m.TaskDuration, m.ScriptDuration + m.RecalcStyleDuration + m.LayoutDuration];
  const t0 = times(await metrics());
  await page.goto(`${stack.url}/bench/pages/listing.html?n=${n}&mode=${mode}${process.env.SHADOW ? '&shadow=1' : ''}`);
  await sleep(3_000);
  const t1 = times(await metrics());
  // Before the scroll, only the first screen's placements have come into view: the rest cost
  // what a placement nobody has seen costs (issue 51 §4). Collected outside the timed spans.
  await cdp.send('HeapProfiler.collectGarbage');
  const unseen = (await metrics()).JSHeapUsedSize;
  const t1b = times(await metrics());
  await page.evaluate(() => window.scrollDown(4_000));
  const t2 = times(await metrics());
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = (await metrics()).JSHeapUsedSize;
  await context.close();
  return { load: (t1[0] - t0[0]) * 1000, scroll: (t2[0] - t1b[0]) * 1000, scrollJs: (t2[1] - t1b[1]) * 1000, unseen: unseen / 1024, heap: heap / 1024 };
}

const modes = (process.env.MODES ?? `none,bare,this${baseline ? ',baseline' : ''}`).split(',');
const rows = [];
try {
  for (const n of sizes) {
    const results = Object.fromEntries(
      modes.map((mode) => [mode, /** @type {Array<{ load: number, scroll: number, scrollJs: number, unseen: number, heap: number }>} */ ([])]),
    );
    // Interleaved, so that a slow moment of the machine falls on every mode alike.
    for (let i = 0; i < RUNS; i++) for (const mode of modes) results[mode].push(await run(mode, n));
    for (const mode of modes) {
      const of = (key) => median(results[mode].map((r) => r[key]));
      rows.push({ n, mode, load: of('load'), scroll: of('scroll'), scrollJs: of('scrollJs'), unseen: of('unseen'), heap: of('heap') });
    }
  }
} finally {
  await browser.close();
  await stack.close();
}

const fmt = (v) => v.toFixed(0).padStart(6);
console.log(
  `Chromium ${version}, median of ${RUNS}${process.env.SHADOW ? ', tiles in open shadow roots, 10 to a component' : ''}; main-thread ms (load + 3 s | 4 s scroll to the bottom), JS heap KB after GC (before the scroll | after it)`,
);
// The cost of a script is what it adds to the page with none; the goal is at most 1.5× the bare
// observer's cost while scrolling.
console.log(
  "  tiles | mode     |   load | scroll (script+style+layout) |  heap before | after | over bare: load  scroll  heap before | after | scroll cost ÷ bare's (script+style+layout)",
);
for (const row of rows) {
  const bare = rows.find((r) => r.n === row.n && r.mode === 'bare') ?? row;
  const none = rows.find((r) => r.n === row.n && r.mode === 'none') ?? row;
  const over =
    row.mode === 'bare' || row.mode === 'none'
      ? ''
      : `${fmt(row.load - bare.load)}  ${fmt(row.scroll - bare.scroll)}       ${fmt(row.unseen - bare.unseen)} | ${fmt(row.heap - bare.heap)} | ${((row.scroll - none.scroll) / (bare.scroll - none.scroll)).toFixed(2)}× (${(
          (row.scrollJs - none.scrollJs) /
          (bare.scrollJs - none.scrollJs)
        ).toFixed(2)}×)`;
  console.log(
    `${String(row.n).padStart(7)} | ${row.mode.padEnd(8)} | ${fmt(row.load)} | ${fmt(row.scroll)} (${fmt(row.scrollJs)})      |       ${fmt(row.unseen)} | ${fmt(row.heap)} | ${over}`,
  );
}
