// ENGAGE_WORKERS: one engage-proxy, several processes on one port (node:cluster), one Redis.
import { PERSON_USER_AGENT } from '../../demo/chromium.mjs';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxyProcess, type ProxyProcess } from '../support/proxy-process';
import { startRedisServer, type RedisServer } from '../support/redis-server';
import { experienceBody, KEYS, startUpstream, WORKSPACE, type Upstream } from './support';

const ENV = { ENGAGE_WORKSPACE_ID: WORKSPACE, ENGAGE_PERSONALIZE_KEY: KEYS.personalize };

describe('engage-proxy with ENGAGE_WORKERS=2', () => {
  let redis: RedisServer;
  let upstream: Upstream;
  let proxy: ProxyProcess | undefined;
  beforeAll(async () => {
    [redis, upstream] = await Promise.all([startRedisServer(), startUpstream()]);
  });
  afterAll(async () => {
    await proxy?.stop();
    await Promise.all([redis?.stop(), upstream?.close()]);
  });

  it('refuses to start with the memory store, and says why', async () => {
    const cli = resolve(import.meta.dirname, '../../dist/proxy-cli.js');
    const child = spawn(process.execPath, [cli], {
      env: { PATH: process.env.PATH, ...ENV, ENGAGE_SDK_URL: upstream.url, ENGAGE_WORKERS: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stderr.on('data', (chunk) => (out += chunk));
    expect(await new Promise((done) => child.once('exit', done))).toBe(1);
    expect(out).toContain('engage-proxy: ENGAGE_WORKERS=2 needs ENGAGE_REDIS_URL');
  });

  // The page's request is inside the proxy's retries (the upstream failing, slowly) when the
  // reloaded page sends the same 200 events again, on a new connection, which the cluster hands
  // to the other worker. Only the store shared through Redis keeps it from forwarding them too.
  it('a reload while the first worker retries, re-sent to the second: 200/200 delivered, none accepted twice', async () => {
    upstream.emulator.reset();
    proxy = await startProxyProcess({ ...ENV, ENGAGE_SDK_URL: upstream.url, ENGAGE_WORKERS: '2', ENGAGE_REDIS_URL: redis.url, ENGAGE_LOG_FORMAT: 'json' });
    await upstream.fault({ statuses: [503], count: 2, latencyMs: 400 });
    const body = JSON.stringify(experienceBody(200));
    // One connection per page: the cluster deals connections to the workers in turn.
    const page = () =>
      request(`${proxy!.url}/v1/experiences/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': PERSON_USER_AGENT },
        body,
        dispatcher: new Agent(),
      }).then(async (res) => [res.statusCode, res.headers['x-engage-deduplicated'], await res.body.text()] as const);
    const before = page();
    await new Promise((done) => setTimeout(done, 150));
    const after = page();
    const [first, second] = await Promise.all([before, after]);
    expect(first[0]).toBe(200);
    expect(second.slice(0, 2)).toEqual([200, '200']);

    const stored = await upstream.experienceEvents();
    expect({ unique: stored.unique, duplicates: stored.duplicates }).toEqual({ unique: 200, duplicates: 0 });
    await expect.poll(() => proxy!.output.filter((line) => line.includes('"path":"/v1/experiences/events"')).length, { timeout: 5_000 }).toBe(2);
    const workers = proxy.output.filter((line) => line.includes('"path":"/v1/experiences/events"')).map((line) => JSON.parse(line).worker);
    expect(new Set(workers).size, 'both workers served one page each').toBe(2);
    console.log(
      `[workers] reload across workers ${workers.join(' and ')}: ${stored.unique}/200 delivered, ${stored.duplicates} accepted twice; the re-send answered from memory (${String(second[1])} deduplicated)`,
    );
  }, 30_000);
});
