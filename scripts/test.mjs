#!/usr/bin/env node
// `npm test`: every check of the repository, run side by side where one only waits for the other
// to finish, not for its result (issue 42: 21 min one after another, the 2 cores busy 28 % of it).
//
//   deps (apt) ─┐
//   build ──────┴─▶ node suite ─▶ browsers (3 engines at once) ─▶ Playwright ─▶ load (the brownout test), alone
//   lint, format, typecheck (nice 10, beside the build and the node suite)
//
// - Lint, format and the type check read only the sources (tsconfig.js.json types the build's
//   imports from types/site), so they run from the start, beside the build and apt, at a lower
//   priority: nothing waits for them, and the build is what the suites wait for.
// - The Node suite and the browsers need the build and apt's packages (redis-server, Chromium);
//   the browser engines run side by side inside their vitest (vitest.browsers.config.ts).
// - The suites run one after another, because on two cores the machine is CPU-bound, not waiting:
//   the Node suite (a file per core) keeps both cores ~90 % busy, the three engines ~71 %. Beside
//   the engines, the Node suite timed out (a consumer project's tsc past 120 s, a cluster's
//   readiness); Playwright beside them took 214 s instead of 143 s and the engines 564 s instead
//   of 453 s: 22 s saved in all, not worth a fourth browser on cores already 97 % busy.
// - The brownout test (3,000 connections at once, vitest's `load` project) runs last and alone:
//   beside anything else it would measure that, not the proxy (vitest.config.ts).
//
// Each line a step prints is prefixed by the step's name. At the end: one line per step (start,
// end, duration, result) and how busy the machine's CPUs were (/proc/stat, every process on it).
// `TEST_STEPS=lint,browsers npm test` runs only the steps named (and nothing they wait for);
// TEST_REPORT_DIR (below) keeps vitest's JSON reports.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules/.bin', name);

/**
 * @typedef {{ name: string, cmd: string[], needs?: string[], after?: string[], alone?: boolean, nice?: boolean }} StepSpec
 * @typedef {{ busy: number, total: number }} Cpu
 * @typedef {StepSpec & { needs: string[], after: string[], state: 'waiting' | 'running' | 'passed' | 'failed' | 'skipped',
 *   why?: string, reported?: boolean, started?: number, ended?: number, cpu0?: Cpu, cpu1?: Cpu,
 *   child?: import('node:child_process').ChildProcess }} Step
 */

/**
 * needs: steps that must have passed first; after: one of these steps must have ended first, passed or not
 * (they only share the machine); alone: starts when nothing else runs, and nothing starts beside it;
 * nice: off the critical path (nothing waits for it), so it runs at a lower priority (`nice -n 10`)
 * and yields the cores to the build and the suites when they want them.
 */
/** @type {StepSpec[]} */
const STEPS = [
  { name: 'deps', cmd: ['bash', 'scripts/ensure-test-deps.sh'] },
  { name: 'build', cmd: ['npm', 'run', '--silent', 'build'] },
  { name: 'format', cmd: [bin('prettier'), '--check', '.'], nice: true },
  { name: 'lint', cmd: [bin('eslint'), '.'], nice: true },
  { name: 'typecheck', cmd: ['npm', 'run', '--silent', 'typecheck'], nice: true },
  { name: 'node', cmd: [bin('vitest'), 'run', '--project', 'node'], needs: ['deps', 'build'] },
  { name: 'browsers', cmd: [bin('vitest'), 'run', '-c', 'vitest.browsers.config.ts'], needs: ['deps', 'build'], after: ['node'] },
  { name: 'e2e', cmd: [bin('playwright'), 'test'], needs: ['deps', 'build'], after: ['browsers'] },
  { name: 'load', cmd: [bin('vitest'), 'run', '--project', 'load'], needs: ['build'], alone: true },
];

// TEST_REPORT_DIR=dir: each vitest step also writes vitest's JSON report to dir/<step>.json (the
// duration of every test file: how the slowest ten of the issue-42 note were read).
const reports = process.env.TEST_REPORT_DIR;
if (reports) {
  for (const step of STEPS.filter((s) => s.cmd[0] === bin('vitest'))) {
    step.cmd.push('--reporter=default', '--reporter=json', `--outputFile=${join(reports, `${step.name}.json`)}`);
  }
}

const only = process.env.TEST_STEPS?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
if (only) {
  const unknown = only.filter((name) => !STEPS.some((step) => step.name === name));
  if (unknown.length) {
    console.error(`TEST_STEPS: unknown step(s) ${unknown.join(', ')}; use ${STEPS.map((s) => s.name).join(', ')}`);
    process.exit(2);
  }
}
/** @type {Step[]} */
const steps = STEPS.filter((step) => !only || only.includes(step.name)).map((step) => ({
  ...step,
  needs: (step.needs ?? []).filter((name) => !only || only.includes(name)),
  after: (step.after ?? []).filter((name) => !only || only.includes(name)),
  state: /** @type {Step['state']} */ ('waiting'),
}));
const width = Math.max(...steps.map((step) => step.name.length));
const t0 = Date.now();
const cpu0 = cpuTimes();
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;
const clock = (ms) => `${String(Math.floor(ms / 60_000)).padStart(2)}:${String(Math.floor(ms / 1000) % 60).padStart(2, '0')}`;

/** Machine-wide CPU jiffies from /proc/stat (busy, total); undefined off Linux. @returns {Cpu | undefined} */
function cpuTimes() {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number);
    const busy = user + nice + system + irq + softirq + steal;
    return { busy, total: busy + idle + iowait };
  } catch {
    return undefined;
  }
}
const busyShare = (from, to) => (from && to && to.total > from.total ? `${Math.round((100 * (to.busy - from.busy)) / (to.total - from.total))} %` : '?');

function prefixed(stream, name) {
  const tag = `${name.padEnd(width)} │ `;
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    if (lines.length) process.stdout.write(lines.map((line) => tag + line).join('\n') + '\n');
  });
  stream.on('end', () => rest && process.stdout.write(tag + rest + '\n'));
}

const running = new Set();
function start(step) {
  step.state = 'running';
  step.started = Date.now();
  step.cpu0 = cpuTimes();
  // A process group of its own, so that an interrupted `npm test` stops the whole step.
  const cmd = step.nice && process.platform !== 'win32' ? ['nice', '-n', '10', ...step.cmd] : step.cmd;
  const child = spawn(cmd[0], cmd.slice(1), {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  step.child = child;
  running.add(step);
  prefixed(child.stdout, step.name);
  prefixed(child.stderr, step.name);
  child.once('error', (error) => console.log(`${step.name.padEnd(width)} │ ${error.message}`));
  child.once('close', (code, signal) => {
    running.delete(step);
    step.ended = Date.now();
    step.cpu1 = cpuTimes();
    step.state = code === 0 ? 'passed' : 'failed';
    step.why = code === 0 ? '' : signal ? `killed by ${signal}` : `exit code ${code}`;
    console.log(`${step.name.padEnd(width)} │ ── ${step.state} in ${seconds(step.ended - step.started)}${step.why ? ` (${step.why})` : ''}`);
    schedule();
  });
}

function schedule() {
  for (const step of steps.filter((s) => s.state === 'waiting')) {
    const of = (names) => steps.filter((s) => names.includes(s.name));
    if (of(step.needs).some((s) => s.state === 'failed' || s.state === 'skipped')) {
      step.state = 'skipped';
      step.why = `needs ${of(step.needs)
        .filter((s) => s.state !== 'passed')
        .map((s) => s.name)
        .join(', ')}`;
      continue;
    }
    const ended = (s) => s.state === 'passed' || s.state === 'failed';
    if (!of(step.needs).every(ended)) continue;
    if (step.after.length && !of(step.after).some(ended)) continue;
    if (step.alone ? running.size > 0 : [...running].some((s) => s.alone)) continue;
    // An `alone` step waits until every other step has started and ended.
    if (step.alone && steps.some((s) => s !== step && !s.alone && s.state === 'waiting')) continue;
    start(step);
  }
  if (steps.some((s) => s.state === 'skipped' && s.why && !s.reported)) {
    for (const s of steps.filter((s) => s.state === 'skipped' && !s.reported)) {
      s.reported = true;
      console.log(`${s.name.padEnd(width)} │ ── skipped (${s.why})`);
    }
    schedule();
    return;
  }
  if (!running.size && steps.every((s) => s.state !== 'waiting')) finish();
}

function finish() {
  const total = Date.now() - t0;
  console.log(`\nnpm test: ${clock(total)} (m:ss) in all; the machine's CPUs busy ${busyShare(cpu0, cpuTimes())} of it (every process on the machine, from /proc/stat)`);
  for (const step of steps) {
    const span =
      step.started && step.ended
        ? `${clock(step.started - t0)} → ${clock(step.ended - t0)}  ${seconds(step.ended - step.started).padStart(5)}  CPUs ${busyShare(step.cpu0, step.cpu1).padStart(4)}`
        : ''.padEnd(29);
    console.log(`  ${step.name.padEnd(width)}  ${span}  ${step.state}${step.why ? ` (${step.why})` : ''}`);
  }
  process.exit(steps.every((s) => s.state === 'passed') ? 0 : 1);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    for (const step of running) {
      try {
        if (step.child?.pid) process.kill(-step.child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    process.exit(130);
  });
}

schedule();
