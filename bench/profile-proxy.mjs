// A CPU profile of engage-proxy under load (`node bench/profile-proxy.mjs memory|redis|cluster|bare
// [events]`, after `npm run build`; `bare` profiles the benches' bare forward instead, to compare
// part by part): the server runs with --cpu-prof in front of the benches' upstream (and a
// Redis or a 3+3 Redis Cluster), 16 connections post fresh bodies for 6 s from this process, and
// the samples are summed by part (our code, validation, node-redis, undici, socket writes, GC) and
// by function. Samples include the profiler's own cost and the machine's load: read the shares.
import { readdirSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Pool } from 'undici';
const root = new URL('..', import.meta.url).pathname;
const { experienceBody, PAGE_HEADERS } = await import(`${root}/bench/experience-request.mjs`);
const { start, startUpstream, startRedis, startRedisCluster } = await import(`${root}/bench/processes.mjs`);
const store = process.argv[2] ?? 'memory';
const events = Number(process.argv[3] ?? 20);
const dir = `${tmpdir()}/engage-profile-${store}`;
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir);
const up = await startUpstream(19901);
let redis;
const env = {};
if (store === 'redis') {
  redis = await startRedis(19902);
  env.ENGAGE_REDIS_URL = 'redis://127.0.0.1:19902';
}
if (store === 'cluster') {
  redis = await startRedisCluster([19911, 19912, 19913, 19914, 19915, 19916]);
  env.ENGAGE_REDIS_URL = 'redis://127.0.0.1:19911';
}
const server = store === 'bare' ? [`${root}/bench/servers/bare-forward.mjs`, '19903', '19901'] : [`${root}/dist/proxy-cli.js`];
const proxy = await start(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...server], {
  port: 19903,
  env: {
    ENGAGE_WORKSPACE_ID: 'ENGAGEDEMO01',
    ENGAGE_PERSONALIZE_KEY: 'k',
    ENGAGE_SDK_URL: 'http://127.0.0.1:19901',
    PORT: '19903',
    ENGAGE_RATE_LIMITS: 'off',
    ENGAGE_LOG_LEVEL: 'off',
    ...env,
  },
});
const pool = new Pool('http://127.0.0.1:19903', { connections: 16 });
const until = Date.now() + 6000;
let done = 0;
await Promise.all(
  Array.from({ length: 16 }, async () => {
    while (Date.now() < until) {
      const r = await pool.request({ path: '/v1/experiences/events', method: 'POST', headers: PAGE_HEADERS, body: experienceBody(events) });
      await r.body.text();
      done++;
    }
  }),
);
await pool.close();
await proxy.stop();
await up.stop();
await redis?.stop();
const file = readdirSync(dir)[0];
const prof = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = prof.timeDeltas;
let total = 0;
prof.samples.forEach((id, i) => {
  const n = byId.get(id);
  const f = n.callFrame;
  const key = `${f.functionName || '(anon)'} ${f.url.replace(/.*node_modules\//, 'nm/').replace(/.*wt-cluster\//, '')}:${f.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0));
  total += dt[i] ?? 0;
});
const busy = total - [...self].filter(([k]) => k.startsWith('(idle)')).reduce((sum, [, v]) => sum + v, 0);
const groups = new Map();
for (const [k, v] of self) {
  const group = k.startsWith('(idle)')
    ? null
    : /nm\/@redis/.test(k)
      ? 'node-redis'
      : /nm\/undici/.test(k)
        ? 'undici (upstream pool)'
        : /nm\/(prom-client|pino)/.test(k)
          ? 'metrics and logs'
          : /dist\/chunks\/campaign|validate-/.test(k)
            ? 'validation (src/upstream)'
            : /^\S+ (file:\/\/\S*\/)?dist\//.test(k)
              ? 'engage-sdk (pipeline, stores, edge)'
              : /^writev/.test(k)
                ? 'socket writes (writev)'
                : /garbage/.test(k)
                  ? 'GC'
                  : 'Node internals and other';
  if (group) groups.set(group, (groups.get(group) ?? 0) + v);
}
console.log(`${done} requests in 6 s; ${(busy / done).toFixed(0)} µs of samples per request (the profiler adds some); busy time by part:`);
for (const [k, v] of [...groups].sort((a, b) => b[1] - a[1]))
  console.log(`${((100 * v) / busy).toFixed(1).padStart(5)} %  ${(v / done).toFixed(0).padStart(4)} µs/req  ${k}`);
console.log('top functions (self time, % of busy):');
for (const [k, v] of [...self]
  .filter(([k]) => !k.startsWith('(idle)'))
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(process.env.TOP ?? 30)))
  console.log(`${((100 * v) / busy).toFixed(1).padStart(5)} %  ${k}`);
