// Start-up bench (issue 51 §2), in Debian's Chromium with the CPU slowed 4× (CDP
// Emulation.setCPUThrottlingRate, Lighthouse's mobile profile), against the real proxy and
// emulator. Usage: npm run bench:load [rounds=10]
// One page (three placements, or PLACEMENTS, and one `shown()` call right after the tracker is there), loaded as:
// no tracker; this build's script tag and the baseline's (bench/baseline.mjs: BASELINE_REF,
// BASELINE_DIST), parser-blocking with the call in an inline script after it (the evaluation and
// the call then share the parser's task); the README's snippet of each (`async`, no inline call:
// the placements are observed); and a module bundling `createTracker` + `autoObserve` from each
// build's dist/index.js (rollup + terser, as an app's bundler would). Rounds are interleaved, so a busy
// moment of the shared machine falls on every variant alike. From a trace of each load until 3 s
// after `load` (the first delivery run and the first impressions are in it), per variant, over the
// main-thread tasks that run script (the navigation's commit, parsing and layout, which a page
// without the tracker runs too, are left out): the task that evaluates the tracker, the longest
// task, the total blocking time (the sum over tasks of what exceeds 50 ms) and the script time
// (outermost script events: evaluation, compilation, calls, microtasks); median and max of the
// rounds. The last column is the longest task of any kind: what the page's own navigation, parsing
// and layout take (the page without a tracker has one too), the floor under every row. Then the
// page's own milestones, from its navigation: parsed (DOMContentLoaded) and its largest contentful
// paint. HEAD=1 puts the tracker's tag before the placements, as the README's snippet does.
// Numbers, not assertions.
//
// ONLY=<part of a variant's name>[|…] loads only those, beside the page without a tracker.
// PROFILE=1 instead takes a CPU profile of each tracker variant's load and prints the call tree
// below each entry into our code, in ms at 4×; DEBUG=1 prints what each task over 30 ms contains.
import resolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { chromium } from 'playwright-core';
import { rollup } from 'rollup';
import { join } from 'node:path';
import { chromiumLaunchOptions, PERSON_USER_AGENT } from '../demo/chromium.mjs';
import { repoRoot } from '../demo/stack.mjs';
import { startStackWithBaseline } from './baseline.mjs';
import { experienceContext } from './experience-context.mjs';

const ROUNDS = Number(process.argv[2] ?? process.env.ROUNDS ?? 10);
const CPU = 4;
const SETTLE_MS = 3_000;

const context = (i) => experienceContext(i, `Hero ${i}`);
// PLACEMENTS=1000: a listing, whose first walk was one long task (issue 51 §2).
const PLACEMENTS = Number(process.env.PLACEMENTS ?? 3);
const placements = Array.from(
  { length: PLACEMENTS },
  (_, i) => `<div style="height:120px" data-engage-context='${JSON.stringify(context(i + 1))}'>Placement ${i + 1}</div>`,
).join('\n');
// The module is deferred: the same wherever its tag is.
const HEAD = Boolean(process.env.HEAD);
const page = (script) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>load</title>${HEAD ? script : ''}</head><body>
${placements}
${HEAD ? '' : script}
</body></html>`;

/**
 * A module bundle of createTracker + autoObserve from `dist`, recording once in its first task:
 * file name → code (entry.js, and the chunks it loads later).
 */
async function moduleBundle(dist) {
  const build = await rollup({
    input: 'entry',
    plugins: [
      {
        name: 'entry',
        resolveId: (id) => (id === 'entry' ? id : id === 'engage-sdk' ? join(dist, 'index.js') : null),
        load: (id) =>
          id === 'entry'
            ? `import { createTracker, autoObserve } from 'engage-sdk';
const tracker = createTracker({ endpoint: '/engage', customerId: 'bench-user' });
autoObserve(tracker);
tracker.shown(${JSON.stringify(context(0))});`
            : null,
      },
      resolve({ browser: true }),
      terser({ ecma: 2020, compress: { passes: 2 } }),
    ],
    onwarn: () => {},
  });
  const { output } = await build.generate({ format: 'es' });
  return new Map(output.flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file.code]] : [])));
}

const { stack, baseline } = await startStackWithBaseline();
const bundles = { this: await moduleBundle(join(repoRoot, 'dist')), ...(baseline && { baseline: await moduleBundle(baseline) }) };
const tag = (src) => `<script src="${src}" data-endpoint="/engage" data-customer-id="bench-user"></script>
<script>Engage.shown(${JSON.stringify(context(0))})</script>`;
// The README's snippet (section 2a).
const asyncTag = (src) => `<script src="${src}" data-endpoint="/engage" data-customer-id="bench-user" async></script>`;
const allVariants = {
  'no tracker': page(''),
  'script tag, this': page(tag('/dist/engage.iife.js')),
  ...(baseline && { 'script tag, baseline': page(tag('/baseline/engage.iife.js')) }),
  'async tag, this': page(asyncTag('/dist/engage.iife.js')),
  ...(baseline && { 'async tag, baseline': page(asyncTag('/baseline/engage.iife.js')) }),
  'module, this': page('<script type="module" src="/load-bench/this/entry.js"></script>'),
  ...(baseline && { 'module, baseline': page('<script type="module" src="/load-bench/baseline/entry.js"></script>') }),
};

const only = process.env.ONLY?.split('|');
const variants = Object.fromEntries(Object.entries(allVariants).filter(([name]) => name === 'no tracker' || !only || only.some((part) => name.includes(part))));

const browser = await chromium.launch(chromiumLaunchOptions());
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'v8',
  'toplevel',
  ...(process.env.DEBUG ? ['disabled-by-default-v8.compile', 'blink', 'disabled-by-default-devtools.timeline.stack'] : []),
];
const SCRIPT = new Set(['EvaluateScript', 'v8.evaluateModule', 'v8.compile', 'v8.compileModule', 'FunctionCall', 'v8.callFunction', 'RunMicrotasks', 'v8.run']);

/** Opens a fresh context on `name`'s page at 4× CPU; `during` runs around the load. */
async function load(name, during) {
  const context = await browser.newContext({ userAgent: PERSON_USER_AGENT });
  await context.route(`${stack.url}/load-bench/**`, (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname === '/load-bench/page.html') return route.fulfill({ contentType: 'text/html; charset=utf-8', body: variants[name] });
    const [build, file] = pathname.slice('/load-bench/'.length).split('/');
    const body = bundles[build]?.get(file);
    return body === undefined ? route.fulfill({ status: 404 }) : route.fulfill({ contentType: 'text/javascript; charset=utf-8', body });
  });
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
  try {
    return await during(tab, cdp, async () => {
      await tab.goto(`${stack.url}/load-bench/page.html`, { waitUntil: 'load' });
      await sleep(SETTLE_MS);
    });
  } finally {
    await context.close();
  }
}

/** { longest, tbt, script } in ms, from the trace of the page's renderer main thread. */
function measureTrace(events, name) {
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args.name === 'CrRendererMain' && rendererOfPage(events, e.pid, e.tid));
  const on = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  const tasks = on.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  // Tasks nest (a nested run loop): only the outermost count.
  const outermost = (list) => {
    let until = -Infinity;
    return list
      .sort((a, b) => a.ts - b.ts)
      .filter((e) => {
        if (e.ts < until) return false;
        until = e.ts + e.dur;
        return true;
      });
  };
  // The tasks that run script: on these pages, only the tracker's (and the page's call into it);
  // the rest (the navigation's commit, parsing, layout) a page without the tracker runs too.
  const scripted = on.filter((e) => SCRIPT.has(e.name));
  const all = outermost(tasks);
  const top = all.filter((t) => scripted.some((e) => e.ts >= t.ts && e.ts < t.ts + t.dur));
  const durations = top.map((e) => e.dur / 1000);
  if (process.env.DEBUG)
    for (const t of top.filter((e) => e.dur > 30_000)) {
      const inside = on.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur > Number(process.env.DEBUG_MIN ?? 5) * 1000);
      console.log(
        `  ${name}: task ${(t.dur / 1000).toFixed(0)} ms at ${((t.ts - top[0].ts) / 1000).toFixed(0)}: ${inside.map((e) => `${e.name}${e.args?.data?.url ? `(${e.args.data.url.replace(/^.*\//, '')})` : ''} ${(e.dur / 1000).toFixed(0)}`).join(', ')}`,
      );
    }
  const evaluation = top.find((t) =>
    on.some((e) => e.ts >= t.ts && e.ts < t.ts + t.dur && (e.name === 'v8.evaluateModule' || (e.name === 'EvaluateScript' && /engage\.iife/.test(e.args?.data?.url)))),
  );
  return {
    evaluation: evaluation ? evaluation.dur / 1000 : 0,
    longest: Math.max(0, ...durations),
    tbt: durations.reduce((sum, d) => sum + Math.max(0, d - 50), 0),
    script: outermost(scripted).reduce((sum, e) => sum + e.dur / 1000, 0),
    any: Math.max(0, ...all.map((e) => e.dur / 1000)),
  };
}
// The renderer that parsed our page (a new context's first renderer may be about:blank's).
const rendererOfPage = (events, pid, tid) =>
  events.some((e) => e.pid === pid && e.tid === tid && e.name === 'ParseHTML' && e.args?.beginData?.url?.includes('/load-bench/page.html'));

/**
 * The page's own milestones, in ms from its navigation: DOMContentLoaded (its parsing done) and the
 * largest contentful paint (what follows a tag in the head is parsed, so painted, only after it).
 */
const pageTimes = (tab) =>
  tab.evaluate(async () => ({
    dcl: /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]).domContentLoadedEventStart,
    lcp: await new Promise((resolve) =>
      new PerformanceObserver((list) => resolve(list.getEntries().at(-1)?.startTime ?? 0)).observe({ type: 'largest-contentful-paint', buffered: true }),
    ),
  }));

async function traced(name) {
  return load(name, async (tab, cdp, go) => {
    await browser.startTracing(tab, { categories: CATEGORIES });
    await go();
    const { traceEvents } = JSON.parse((await browser.stopTracing()).toString());
    return { ...measureTrace(traceEvents, name), ...(await pageTimes(tab)) };
  });
}

async function profiled(name) {
  return load(name, async (tab, cdp, go) => {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await go();
    const { profile } = await cdp.send('Profiler.stop');
    return profile;
  });
}

/**
 * The call tree of a CPU profile below each entry into our scripts (the script's evaluation, a
 * timer, a callback, a microtask), as lines of total ms at 4× (callees included), to `depth`.
 */
function callTree(profile, depth = 6, minMs = 1) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000));
  const total = (n) => (self.get(n.id) ?? 0) + (n.children ?? []).reduce((sum, c) => sum + total(nodes.get(c)), 0);
  const ours = (n) => /engage|load-bench/.test(n.callFrame.url);
  const name = (n) =>
    `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\//, '')}:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber + 1}`;
  const lines = [];
  const walk = (n, level) => {
    const ms = total(n);
    if (ms < minMs) return;
    lines.push(`${ms.toFixed(1).padStart(8)}  ${'  '.repeat(level)}${name(n)} (self ${(self.get(n.id) ?? 0).toFixed(1)})`);
    if (level < depth)
      (n.children ?? [])
        .map((c) => nodes.get(c))
        .sort((a, b) => total(b) - total(a))
        .forEach((c) => walk(c, level + 1));
  };
  // Entries: our frames whose parent is not ours.
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, nodes.get(n.id));
  for (const n of profile.nodes) if (ours(n) && !(parent.get(n.id) && ours(parent.get(n.id)))) walk(n, 0);
  return lines;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
try {
  console.log(
    `engage-sdk start-up, ${PLACEMENTS} placements${HEAD ? ' after the tag' : ''}, Chromium ${browser.version()}, CPU ${CPU}× slower, ${process.env.PROFILE ? 'CPU profiles' : `${ROUNDS} interleaved rounds`}\n`,
  );
  if (process.env.PROFILE) {
    for (const name of Object.keys(variants).filter((n) => n !== 'no tracker')) {
      console.log(`${name}: where the script time goes (ms at ${CPU}×; total includes callees)`);
      for (const line of callTree(await profiled(name), Number(process.env.PROFILE_DEPTH ?? 6))) console.log(line);
      console.log('');
    }
  } else {
    const results = Object.fromEntries(Object.keys(variants).map((name) => [name, /** @type {Array<ReturnType<typeof measureTrace>>} */ ([])]));
    for (let i = 0; i < ROUNDS; i++) for (const name of Object.keys(variants)) results[name].push(await traced(name));
    const cell = (runs, key) => `${median(runs.map((r) => r[key])).toFixed(0)} / ${Math.max(...runs.map((r) => r[key])).toFixed(0)}`;
    const columns = { evaluation: 'evaluation', longest: 'longest task', tbt: 'blocking time', script: 'script time', any: 'any task', dcl: 'parsed (DCL)', lcp: 'LCP' };
    console.log(
      `${'ms, median / max'.padEnd(22)} ${Object.values(columns)
        .map((title) => title.padStart(14))
        .join(' ')}`,
    );
    for (const [name, runs] of Object.entries(results))
      console.log(
        `${name.padEnd(22)} ${Object.keys(columns)
          .map((key) => cell(runs, key).padStart(14))
          .join(' ')}`,
      );
  }
} finally {
  await browser.close();
  await stack.close();
}
