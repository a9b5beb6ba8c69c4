// Load test for sizing (`npm run load`, `-- --quick` for 10 s phases; not part of CI).
//
// 1. Capacity: two engage-proxy processes sharing one Redis behind nginx (round robin, adding
//    X-Forwarded-For; the proxies trust it), in front of a minimal upstream, driven as hard as this
//    machine allows for 60 s: half 1-event and half 20-event requests, 10 % of them re-sending a
//    body already sent. Events/s per proxy core, Redis commands and CPU per event, memory per instance.
// 2. Default limits: the same stack with no ENGAGE_RATE_LIMITS, 1,000 events/s for 60 s from 100
//    client addresses: every request must be answered 2xx.
// 3. The memory store past maxKeys: 2 M event keys churned through a store of 1 M, in-process:
//    CPU per request and heap as it fills and then evicts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { createMemoryStore, createProxy } from '#dist/proxy.js';
import { experienceBody, PAGE_HEADERS } from './experience-request.mjs';
import { cpuOfTree, freePort, start, startEngageProxy, startRedis, startUpstream } from './processes.mjs';

const quick = process.argv.includes('--quick');
const PHASE_MS = quick ? 10_000 : 60_000;
if (!existsSync('/usr/sbin/nginx')) throw new Error('load: nginx is the balancer: apt-get install -y --no-install-recommends nginx-light');

const scratch = mkdtempSync(join(tmpdir(), 'engage-load-'));
const upstreamPort = freePort();
const redisPort = freePort();
const upstream = await startUpstream(upstreamPort);
const redis = await startRedis(redisPort);
const redisInfo = (section) =>
  Object.fromEntries(
    execFileSync('redis-cli', ['-p', String(redisPort), 'INFO', section], { encoding: 'utf8' })
      .split('\r\n')
      .filter((line) => line.includes(':'))
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]),
  );
/** Calls per command, from INFO commandstats (SETs run inside our scripts count too). */
const redisCalls = () => {
  const calls = (name) => Number(/calls=(\d+)/.exec(redisInfo('commandstats')[`cmdstat_${name}`] ?? '')?.[1] ?? 0);
  const all = Object.values(redisInfo('commandstats')).reduce((sum, value) => sum + Number(/calls=(\d+)/.exec(value)?.[1] ?? 0), 0);
  return { scripts: calls('evalsha') + calls('eval'), all };
};
const redisCpuUs = () => {
  const cpu = redisInfo('cpu');
  return (Number(cpu.used_cpu_sys) + Number(cpu.used_cpu_user)) * 1e6;
};
const rssMb = (pid) => Number(/** @type {RegExpExecArray} */ (/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8')))[1]) / 1024;

/** Two engage-proxy processes on Redis behind nginx; resolves to the balancer's URL and the pids. */
async function stack(env) {
  const ports = [freePort(), freePort()];
  const proxies = await Promise.all(
    ports.map((port) =>
      startEngageProxy(port, upstreamPort, {
        ENGAGE_REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        ENGAGE_TRUSTED_PROXIES: '127.0.0.1',
        ENGAGE_LOG_LEVEL: 'warn',
        ...env,
      }),
    ),
  );
  const port = freePort();
  const dir = mkdtempSync(join(scratch, 'nginx-'));
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off; worker_processes 1; error_log stderr error; pid ${dir}/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  upstream engage { ${ports.map((p) => `server 127.0.0.1:${p};`).join(' ')} keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / { proxy_pass http://engage; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for; }
  }
}
`,
  );
  const balancer = await start('/usr/sbin/nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { port });
  return { url: `http://127.0.0.1:${port}`, proxies, balancer, stop: () => Promise.all([balancer.stop(), ...proxies.map((p) => p.stop())]) };
}

const send = async (pool, body, client) => {
  const res = await pool.request({ path: '/v1/experiences/events', method: 'POST', headers: { ...PAGE_HEADERS, 'x-forwarded-for': client }, body });
  await res.body.text();
  return res.statusCode;
};
const countEvents = (body) => (body.match(/svc_event_uuid/g) ?? []).length;

async function capacity() {
  const s = await stack({ ENGAGE_RATE_LIMITS: 'off' });
  const pool = new Pool(s.url, { connections: 32 });
  const sent = [];
  const statuses = new Map();
  let events = 0;
  let requests = 0;
  const loop = async (until) => {
    for (let i = 0; performance.now() < until; i++) {
      const resend = sent.length > 0 && Math.random() < 0.1;
      const body = resend ? sent[Math.floor(Math.random() * sent.length)] : experienceBody(Math.random() < 0.5 ? 1 : 20);
      if (!resend && sent.length < 5_000) sent.push(body);
      const status = await send(pool, body, `198.51.100.${i % 100}`);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      events += countEvents(body);
      requests++;
    }
  };
  await Promise.all(Array.from({ length: 32 }, () => loop(performance.now() + 2_000)));
  events = requests = 0;
  statuses.clear();
  const cpu0 = s.proxies.map((p) => cpuOfTree(p.pid));
  const [calls0, redisCpu0] = [redisCalls(), redisCpuUs()];
  const started = performance.now();
  await Promise.all(Array.from({ length: 32 }, () => loop(started + PHASE_MS)));
  const seconds = (performance.now() - started) / 1000;
  const proxyCpuSeconds = s.proxies.reduce((sum, p, i) => sum + (cpuOfTree(p.pid) - cpu0[i]), 0) / 1e6;
  const result = {
    seconds,
    requests,
    eventsPerSecond: events / seconds,
    eventsPerProxyCore: events / proxyCpuSeconds,
    proxyCores: proxyCpuSeconds / seconds,
    redisScriptsPerRequest: (redisCalls().scripts - calls0.scripts) / requests,
    redisCommandsPerEvent: (redisCalls().all - calls0.all) / events,
    redisCpuUsPerEvent: (redisCpuUs() - redisCpu0) / events,
    rssMb: s.proxies.map((p) => rssMb(p.pid)),
    statuses: Object.fromEntries(statuses),
  };
  await pool.close();
  await s.stop();
  return result;
}

async function defaultLimits() {
  const s = await stack({});
  const pool = new Pool(s.url, { connections: 16 });
  const statuses = new Map();
  const started = performance.now();
  const inflight = [];
  // 1,000 events/s: every 100 ms, 10 requests of 10 events, from 100 client addresses in turn.
  for (let tick = 0; performance.now() - started < PHASE_MS; tick++) {
    for (let i = 0; i < 10; i++) {
      const client = `203.0.113.${(tick * 10 + i) % 100}`;
      inflight.push(send(pool, experienceBody(10), client).then((status) => statuses.set(status, (statuses.get(status) ?? 0) + 1)));
    }
    const next = started + (tick + 1) * 100;
    await new Promise((done) => setTimeout(done, Math.max(0, next - performance.now())));
  }
  await Promise.all(inflight);
  await pool.close();
  await s.stop();
  return { seconds: (performance.now() - started) / 1000, requests: inflight.length, statuses: Object.fromEntries(statuses) };
}

async function memoryStore() {
  const ok = JSON.stringify({ status: 'success' });
  const proxy = createProxy({
    workspaceId: 'ENGAGEDEMO01',
    keys: { personalize: 'bench-key' },
    sdkUrl: 'http://upstream.invalid',
    rateLimits: { experienceEvents: {} },
    store: createMemoryStore({ maxKeys: 1_000_000 }),
    fetch: async () => new Response(ok, { status: 200, headers: { 'content-type': 'application/json' } }),
  });
  const rows = [];
  let keys = 0;
  for (const target of [250_000, 500_000, 1_000_000, 1_500_000, 2_000_000]) {
    const cpu0 = process.cpuUsage();
    let requests = 0;
    while (keys < target) {
      const res = await proxy(new Request('http://proxy.local/v1/experiences/events', { method: 'POST', headers: PAGE_HEADERS, body: experienceBody(20) }));
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`load: memory store phase answered ${res.status}`);
      keys += 20;
      requests++;
    }
    const cpu = process.cpuUsage(cpu0);
    globalThis.gc?.();
    rows.push({ keys, cpuUsPerRequest: (cpu.user + cpu.system) / requests, heapMb: process.memoryUsage().heapUsed / 2 ** 20 });
  }
  return rows;
}

console.log(`load test — Node ${process.version}, ${PHASE_MS / 1000} s phases, 2 cores shared by the load, nginx, 2 proxies, Redis and the upstream`);
const a = await capacity();
console.log(`\n1. capacity: two engage-proxy processes + Redis behind nginx, 32 connections, ½ 1-event ½ 20-event requests, 10 % re-sent`);
console.log(`   ${a.requests} requests in ${a.seconds.toFixed(0)} s, statuses ${JSON.stringify(a.statuses)}`);
console.log(`   ${a.eventsPerSecond.toFixed(0)} events/s; the proxies used ${a.proxyCores.toFixed(2)} cores: ${a.eventsPerProxyCore.toFixed(0)} events/s per proxy core`);
console.log(
  `   Redis: ${a.redisScriptsPerRequest.toFixed(2)} script calls (round trips) per request; ${a.redisCommandsPerEvent.toFixed(2)} commands per event, the SETs inside them included; ${a.redisCpuUsPerEvent.toFixed(2)} µs CPU per event (${(1e6 / a.redisCpuUsPerEvent).toFixed(0)} events/s per Redis core at 100 %)`,
);
console.log(`   memory: ${a.rssMb.map((mb) => `${mb.toFixed(0)} MB`).join(' and ')} RSS per instance`);
const b = await defaultLimits();
const refused = Object.entries(b.statuses)
  .filter(([status]) => !status.startsWith('2'))
  .reduce((sum, [, n]) => sum + n, 0);
console.log(`\n2. default limits (no ENGAGE_RATE_LIMITS): 1,000 events/s for ${b.seconds.toFixed(0)} s from 100 client addresses behind the balancer`);
console.log(`   ${b.requests} requests, statuses ${JSON.stringify(b.statuses)}: ${refused === 0 ? 'every request 2xx' : `${refused} NOT 2xx`}`);
console.log(`\n3. memory store, maxKeys 1,000,000, 20-event requests through the handler in this process`);
for (const row of await memoryStore()) {
  console.log(`   ${String(row.keys).padStart(9)} keys sent: ${row.cpuUsPerRequest.toFixed(0).padStart(4)} µs CPU per request, heap ${row.heapMb.toFixed(0)} MB`);
}
await Promise.all([upstream.stop(), redis.stop()]);
rmSync(scratch, { recursive: true, force: true });
