// Insertion bench (issue 51 §2), in Debian's Chromium with the CPU slowed 4× (Lighthouse's mobile
// profile), against the real proxy and emulator. Usage: npm run bench:insertion [rounds=8]
// A page whose script tag (the README's `async` snippet) has started inserts a listing of
// PLACEMENTS (1,000) placements with one `innerHTML`, as a client-rendered listing or a "show all"
// does. For no tracker, this build and the baseline build (bench/baseline.mjs: BASELINE_REF,
// BASELINE_DIST), in interleaved rounds, median / max: the insertion's own time (the page's,
// tracker or not), the script time of ours in that task (from after `innerHTML` to the end of its
// microtasks: autoObserve's MutationObserver callback and what of its walk runs there), and the
// longest long task in the 2.5 s after it (the walk's later slices, the observer's first entries).
// Numbers, not assertions.
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions, PERSON_USER_AGENT } from '../demo/chromium.mjs';
import { startStackWithBaseline } from './baseline.mjs';
import { experienceContext } from './experience-context.mjs';

const ROUNDS = Number(process.argv[2] ?? 8);
const PLACEMENTS = Number(process.env.PLACEMENTS ?? 1_000);
const CPU = 4;

const context = (i) => experienceContext(i, `Tile ${i}`);
const listing = Array.from(
  { length: PLACEMENTS },
  (_, i) => `<div style="height:120px" data-engage-context='${JSON.stringify(context(i))}'>Tile ${i} <a href="#" data-engage-b-id="buy">Buy</a></div>`,
).join('');
const page = (src) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>insertion</title></head><body><div id="grid"></div>${
    src ? `<script src="${src}" data-endpoint="/engage" data-customer-id="bench-user" async></script>` : ''
  }</body></html>`;

const { stack, baseline } = await startStackWithBaseline();
const variants = { 'no tracker': page(''), 'this build': page('/dist/engage.iife.js'), ...(baseline && { baseline: page('/baseline/engage.iife.js') }) };
const browser = await chromium.launch(chromiumLaunchOptions());

/** One insertion into `name`'s page, 1.5 s after its load: { insert, ours, after } in ms. */
async function once(name) {
  const context = await browser.newContext({ userAgent: PERSON_USER_AGENT });
  await context.route(`${stack.url}/insertion-bench/page.html`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: variants[name] }));
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
  try {
    await tab.goto(`${stack.url}/insertion-bench/page.html`, { waitUntil: 'load' });
    // The tracker's start and first walk are over by then.
    await tab.waitForTimeout(1_500);
    return await tab.evaluate(async (html) => {
      const tasks = [];
      new PerformanceObserver((list) => tasks.push(...list.getEntries())).observe({ type: 'longtask' });
      const t0 = performance.now();
      /** @type {HTMLElement} */ (document.getElementById('grid')).innerHTML = html;
      const t1 = performance.now();
      // A MutationObserver's callback, and what it queues, run at this task's microtask checkpoint:
      // before an await of two resolved promises resumes.
      await Promise.resolve();
      await Promise.resolve();
      const t2 = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      return { insert: t1 - t0, ours: t2 - t1, after: Math.max(0, ...tasks.filter((task) => task.startTime > t2).map((task) => task.duration)) };
    }, listing);
  } finally {
    await context.close();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
try {
  /** @type {Record<string, Array<{ insert: number, ours: number, after: number }>>} */
  const runs = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  // Interleaved, so that a busy moment of the shared machine falls on every variant alike.
  for (let i = 0; i < ROUNDS; i++) for (const name of Object.keys(variants)) runs[name].push(await once(name));
  console.log(`engage-sdk: ${PLACEMENTS} placements inserted at once after the start, Chromium ${browser.version()}, CPU ${CPU}× slower, ${ROUNDS} interleaved rounds\n`);
  console.log('ms, median / max           insertion (the page)   ours in that task   longest task after');
  const cell = (list, key) => `${median(list.map((r) => r[key])).toFixed(0)} / ${Math.max(...list.map((r) => r[key])).toFixed(0)}`.padStart(12);
  for (const [name, list] of Object.entries(runs)) console.log(`${name.padEnd(24)} ${cell(list, 'insert')}          ${cell(list, 'ours')}        ${cell(list, 'after')}`);
} finally {
  await browser.close();
  await stack.close();
}
