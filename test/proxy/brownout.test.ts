// An upstream brownout through the built engage-proxy at its defaults: the upstream answers each
// request after 5 s while 3,000 requests arrive at once. The proxy keeps at most its bound in
// flight upstream, answers the excess 503 + Retry-After at once, keeps its memory and probes,
// and after recovery every event re-sent as a tracker would is accepted exactly once.
import { PERSON_USER_AGENT } from '../../demo/chromium.mjs';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator/index';
import { DEFAULT_UPSTREAM_CONCURRENCY, DEFAULT_UPSTREAM_QUEUE } from '../../src/proxy/config';
import { createNodeMiddleware, type Handler } from '../../src/proxy/node/serve';
import { experienceBody, KEYS, WORKSPACE } from './support';

const CLI = resolve(import.meta.dirname, '../../dist/proxy-cli.js');
const REQUESTS = 3_000;
const UPSTREAM_LATENCY_MS = 5_000;
/**
 * The stated bound on the proxy's resident memory during the brownout (at its defaults, 1-event
 * bodies): 160 MB, + 10 MB since the probe port's thread (resting 69–73 MB before it, ~80 with it).
 */
const RSS_BOUND_MB = 170;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssKb = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
/** CPU time of a process so far (user + system), in ms. */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

/**
 * The operator's side, in a process of its own so the load generator's event loop does not add
 * to what it measures: every 50 ms, in turn, GET /healthz, /readyz, /metrics on the probe port
 * (ENGAGE_PROBE_PORT) and /healthz on the proxy's port, each on a new connection as kubelet's
 * probes are, and the proxy's RSS; one JSON line per probe.
 */
const PROBER = `
const http = require('node:http');
const fs = require('node:fs');
const [probeOrigin, proxyOrigin, pid] = process.argv.slice(1);
const targets = [[probeOrigin, '/healthz'], [probeOrigin, '/readyz'], [probeOrigin, '/metrics'], [proxyOrigin, '/healthz']];
const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(fs.readFileSync('/proc/' + pid + '/status', 'utf8'))[1]);
let i = 0;
const next = () => {
  const [origin, path] = targets[i++ % targets.length];
  const where = (origin === probeOrigin ? 'probe port ' : 'proxy port ') + path;
  const started = performance.now();
  http.get(origin + path, { agent: false }, (res) => {
    res.resume();
    res.on('end', () => {
      console.log(JSON.stringify({ where, status: res.statusCode, ms: performance.now() - started, rssKb: rss() }));
      setTimeout(next, 50);
    });
  }).on('error', (error) => {
    console.log(JSON.stringify({ where, status: 0, ms: performance.now() - started, error: error.message }));
    setTimeout(next, 50);
  });
};
next();
`;

/**
 * The emulator behind a node:http server that counts the requests and connections it holds at
 * once. In a brownout each request is answered after 5 s, and none before the test opens the
 * gate: the burst's refusals are then all answered while the upstream has answered nothing, and
 * the counts do not depend on how fast a loaded machine delivers the burst.
 */
async function countingUpstream() {
  const emulator = createEmulator({ workspaceId: WORKSPACE, keys: KEYS, limits: false });
  const counts = { inFlight: 0, maxInFlight: 0, connections: 0, maxConnections: 0 };
  let held: Promise<unknown> | undefined;
  let openGate = () => {};
  const counted: Handler = async (request, info) => {
    if (new URL(request.url).pathname.startsWith('/_emulator/')) return emulator.handler(request, info);
    counts.maxInFlight = Math.max(counts.maxInFlight, ++counts.inFlight);
    try {
      if (held) await Promise.all([sleep(UPSTREAM_LATENCY_MS), held]);
      return await emulator.handler(request, info);
    } finally {
      counts.inFlight--;
    }
  };
  const server: Server = createServer(createNodeMiddleware(counted));
  // Connections that carried a request to the API (not the test's own admin calls).
  const carrying = new WeakSet<object>();
  server.on('request', (req: IncomingMessage) => {
    const socket = req.socket;
    if (req.url?.startsWith('/_emulator/') || carrying.has(socket)) return;
    carrying.add(socket);
    counts.maxConnections = Math.max(counts.maxConnections, ++counts.connections);
    socket.once('close', () => counts.connections--);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const admin = async (path: string, init?: RequestInit) => (await fetch(`${url}/_emulator/${path}`, init)).json();
  return {
    url,
    counts,
    /** Starts the brownout, its gate closed. */
    brownOut: () => {
      held = new Promise<void>((r) => (openGate = r));
    },
    openGate: () => openGate(),
    recover: () => {
      held = undefined;
    },
    stored: () => admin('experience-events') as Promise<{ unique: number; duplicates: number }>,
    received: async () =>
      ((await admin('requests')) as { requests: Array<{ operation: string | null }> }).requests.filter((r) => r.operation === 'experienceEvents').length,
    close: async () => {
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      emulator.close();
    },
  };
}

describe('a 5 s upstream brownout through engage-proxy (built, defaults)', () => {
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('dist/proxy-cli.js is missing: run `npm run build` first (npm test does).');
  });
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups.length = 0;
  });

  it(
    'keeps the upstream at its bound, answers the excess 503 + Retry-After at once, keeps memory and probes, and accepts every event once after',
    { timeout: 180_000 },
    async () => {
      const upstream = await countingUpstream();
      cleanups.push(upstream.close);
      const child: ChildProcess = spawn(process.execPath, [CLI], {
        env: {
          PATH: process.env.PATH,
          ENGAGE_WORKSPACE_ID: WORKSPACE,
          ENGAGE_PERSONALIZE_KEY: KEYS.personalize,
          ENGAGE_SDK_URL: upstream.url,
          ENGAGE_BASE_PATH: '/engage',
          // A sale: the operator has turned the proxy's own budgets off.
          ENGAGE_RATE_LIMITS: 'off',
          ENGAGE_LOG_LEVEL: 'warn',
          PORT: '0',
          ENGAGE_PROBE_PORT: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      cleanups.push(() => {
        child.kill('SIGKILL');
      });
      let output = '';
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      await expect.poll(() => output, { timeout: 15_000 }).toContain('listening on');
      const base = /listening on (\S+)/.exec(output)![1]!;
      const origin = new URL(base).origin;
      const probeOrigin = /probes on (\S+)/.exec(output)![1]!;
      const pid = child.pid!;

      const load = new Pool(origin, { connections: REQUESTS, pipelining: 1 });
      cleanups.push(() => load.destroy());
      const post = async (body: string) => {
        const started = performance.now();
        const {
          statusCode,
          headers,
          body: answer,
        } = await load.request({
          method: 'POST',
          path: '/engage/v1/experiences/events',
          headers: { 'content-type': 'application/json', 'user-agent': PERSON_USER_AGENT },
          body,
        });
        const text = await answer.text();
        return { status: statusCode, retryAfter: headers['retry-after'] as string | undefined, text, ms: performance.now() - started, at: performance.now() };
      };
      // Warm: one request through, then the resting memory.
      expect((await post(JSON.stringify(experienceBody(1)))).status).toBe(200);
      const restingMb = rssKb(pid, 'VmRSS') / 1024;

      upstream.brownOut();
      const bodies = Array.from({ length: REQUESTS }, () => JSON.stringify(experienceBody(1)));
      const prober = spawn(process.execPath, ['-e', PROBER, probeOrigin, origin, String(pid)], { stdio: ['ignore', 'pipe', 'inherit'] });
      cleanups.push(() => {
        prober.kill('SIGKILL');
      });
      let probed = '';
      prober.stdout.on('data', (d) => (probed += d));
      await expect.poll(() => probed, { timeout: 10_000 }).toContain('/metrics');
      const started = performance.now();
      const cpuBefore = cpuMs(pid);
      // The gate opens once every request past the bound and the queue has been refused (or at
      // 9 s, so a proxy that refuses too few fails on the counts below, not on a timeout).
      let refusedSoFar = 0;
      const excess = REQUESTS - DEFAULT_UPSTREAM_CONCURRENCY - DEFAULT_UPSTREAM_QUEUE;
      const fallback = setTimeout(upstream.openGate, 9_000);
      cleanups.push(() => clearTimeout(fallback));
      const answers = await Promise.all(
        bodies.map((body) =>
          post(body).then((answer) => {
            if (answer.status === 503 && ++refusedSoFar === excess) upstream.openGate();
            return answer;
          }),
        ),
      );
      const elapsedMs = performance.now() - started;
      const cpuUsed = cpuMs(pid) - cpuBefore;
      prober.kill('SIGTERM');
      await new Promise((r) => prober.once('exit', r));
      const highWaterMb = rssKb(pid, 'VmHWM') / 1024;
      const probes = probed
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { where: string; status: number; ms: number; rssKb?: number });
      const probeMs: Record<string, number[]> = {};
      for (const probe of probes) (probeMs[probe.where] ??= []).push(probe.ms);
      const probeStatuses = probes.map((probe) => probe.status);
      const peakRssMb = Math.max(...probes.map((probe) => (probe.rssKb ?? 0) / 1024));

      const bound = DEFAULT_UPSTREAM_CONCURRENCY;
      const accepted = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status === 503);
      const firstAccepted = Math.min(...accepted.map((a) => a.at));
      const refusedMs = refused.map((a) => a.ms);
      const figures = {
        requests: REQUESTS,
        accepted: accepted.length,
        refused: refused.length,
        other: answers.length - accepted.length - refused.length,
        upstreamMaxInFlight: upstream.counts.maxInFlight,
        upstreamMaxConnections: upstream.counts.maxConnections,
        refusedMs: { p50: percentile(refusedMs, 50), p99: percentile(refusedMs, 99), max: Math.max(...refusedMs) },
        acceptedMs: { min: Math.min(...accepted.map((a) => a.ms)), max: Math.max(...accepted.map((a) => a.ms)) },
        loadMs: Math.round(elapsedMs),
        proxyCpuMs: cpuUsed,
        rssMb: { resting: restingMb, peak: peakRssMb, highWater: highWaterMb, bound: RSS_BOUND_MB },
        probes: Object.fromEntries(Object.entries(probeMs).map(([path, ms]) => [path, { n: ms.length, p50: percentile(ms, 50), max: Math.max(...ms) }])),
      };
      console.log(`brownout: ${JSON.stringify(figures, (_, v: unknown) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v))}`);

      // The upstream never held more than the bound, by requests or by connections.
      expect(upstream.counts.maxInFlight).toBeLessThanOrEqual(bound);
      expect(upstream.counts.maxConnections).toBeLessThanOrEqual(bound);
      // Every request was answered: forwarded (the bound, then the queue), or refused.
      expect(figures.other).toBe(0);
      expect(accepted.length).toBe(bound + DEFAULT_UPSTREAM_QUEUE);
      expect(refused.length).toBe(REQUESTS - bound - DEFAULT_UPSTREAM_QUEUE);
      // At once: every refusal answered before the upstream's first answer came back, each with a
      // Retry-After and the experience events' own error shape.
      expect(Math.max(...refused.map((a) => a.at))).toBeLessThan(firstAccepted);
      for (const answer of refused) {
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(2);
        expect(JSON.parse(answer.text)).toMatchObject({ title: expect.any(String), description: 'The upstream is busy; retry later' });
      }
      expect(peakRssMb).toBeLessThanOrEqual(RSS_BOUND_MB);
      expect(highWaterMb).toBeLessThanOrEqual(RSS_BOUND_MB);
      // The probes answered throughout (their latencies are printed above, not asserted).
      expect(Object.keys(probeMs).sort()).toEqual(['probe port /healthz', 'probe port /metrics', 'probe port /readyz', 'proxy port /healthz']);
      expect(probeStatuses.length).toBeGreaterThanOrEqual(8);
      expect(new Set(probeStatuses)).toEqual(new Set([200]));

      // Counted in /metrics and in the log.
      const metrics = await (await fetch(`${origin}/metrics`)).text();
      expect(metrics).toContain(`engage_proxy_upstream_overloaded_total{operation="experienceEvents",reason="full"} ${refused.length}`);
      const overloadedLines = () => output.split('\n').filter((line) => line.includes('overloaded=full'));
      await expect.poll(() => overloadedLines().length, { timeout: 10_000 }).toBe(refused.length);
      // The proxy's own time for a refusal, from its log (the figures above include the load generator's).
      const loggedMs = overloadedLines().map((line) => Number(/ (\d+)ms /.exec(line)![1]));
      console.log(`brownout: refusals as the proxy logged them: p50 ${percentile(loggedMs, 50)} ms, p99 ${percentile(loggedMs, 99)} ms, max ${Math.max(...loggedMs)} ms`);

      // Recovery: the tracker re-sends each refused request after its Retry-After, until a 2xx;
      // and 100 whose 200 it never saw (a closed tab) are re-sent too.
      upstream.recover();
      const resend = async (body: string, retryAfter: string | undefined) => {
        for (let attempt = 0; attempt < 10; attempt++) {
          await sleep(Number(retryAfter ?? 1) * 1000);
          const answer = await post(body);
          if (answer.status === 200) return answer.status;
          retryAfter = answer.retryAfter;
        }
        return 0;
      };
      const refusedBodies = answers.flatMap((a, i) => (a.status === 503 ? [resend(bodies[i]!, a.retryAfter)] : []));
      const lostAnswers = answers.flatMap((a, i) => (a.status === 200 && i % 10 === 0 ? [post(bodies[i]!).then((r) => r.status)] : []));
      const statuses = await Promise.all([...refusedBodies, ...lostAnswers]);
      expect(new Set(statuses)).toEqual(new Set([200]));

      const stored = await upstream.stored();
      // The warm-up event, then every one of the 3,000 exactly once.
      expect({ unique: stored.unique, duplicates: stored.duplicates }).toEqual({ unique: REQUESTS + 1, duplicates: 0 });
      // And each forwarded once: no request of the brownout reached the upstream twice.
      expect(await upstream.received()).toBe(REQUESTS + 1);
    },
  );
});
