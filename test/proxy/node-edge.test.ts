// The Node edge: `serve` runs the proxy's pipeline on Node's own request and response, over an
// undici pool (no `fetch` given). What differs from the Web edge is tested here through real
// sockets: the pool's retries, time limit and redirects, streamed bodies, paths, Host-based
// same-origin, the hooks' view of the request, and probes.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createProxy } from '../../src/proxy/create-proxy';
import { serve, type RunningServer } from '../../src/proxy/node/serve';
import { withProbes } from '../../src/proxy/probes';
import type { ProxyLogEntry, ProxyOptions } from '../../src/proxy/types';
import { experienceBody, KEYS, startUpstream, WORKSPACE, type Upstream } from './support';

let upstream: Upstream | undefined;
let front: RunningServer | undefined;
let other: Server | undefined;
afterEach(async () => {
  await front?.close();
  await upstream?.close();
  await new Promise((resolve) => (other ? other.close(resolve) : resolve(undefined)));
  front = upstream = other = undefined;
});

async function start(options: Partial<ProxyOptions> = {}): Promise<{ url: string; log: ProxyLogEntry[] }> {
  upstream = await startUpstream();
  const log: ProxyLogEntry[] = [];
  const proxy = createProxy({
    workspaceId: WORKSPACE,
    keys: KEYS,
    sdkUrl: upstream.url,
    basePath: '/engage',
    retryBaseDelayMs: 1,
    logger: (entry) => log.push(entry),
    ...options,
  });
  front = await serve(withProbes(proxy, { options: { keys: KEYS } }));
  return { url: `${front.url}/engage`, log };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/v1/experiences/events`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** A raw request, so the body can be streamed without a length. */
function raw(url: string, init: { method: string; headers?: Record<string, string>; chunks?: string[] }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method, headers: init.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    for (const chunk of init.chunks ?? []) req.write(chunk);
    req.end();
  });
}

describe('the Node edge (serve without a fetch: undici pool)', () => {
  it('forwards with the key added, once per event, and retries a reset connection', async () => {
    const { url, log } = await start();
    await upstream!.fault({ statuses: ['reset'], count: 1 });
    const body = experienceBody(20);
    const res = await post(url, body);
    expect(res.status).toBe(200);
    const stored = await upstream!.experienceEvents();
    expect(stored.unique).toBe(20);
    expect(stored.duplicates).toBe(0);
    expect(log.at(-1)).toMatchObject({ status: 200, attempts: 2, forwarded: 20 });
    // A re-send is answered from memory, not forwarded.
    expect((await post(url, body)).headers.get('x-engage-deduplicated')).toBe('20');
    expect((await upstream!.experienceEvents()).unique).toBe(20);
  });

  it('answers 504 when the upstream does not answer within upstreamTimeoutMs', async () => {
    const { url } = await start({ upstreamTimeoutMs: 150, retries: 0 });
    await upstream!.fault({ latencyMs: 2_000, count: 1 });
    const res = await post(url, experienceBody(1));
    expect(res.status).toBe(504);
  });

  it('never follows a redirect (the key must not travel on): 502, and the target gets nothing', async () => {
    let reached = 0;
    other = createServer((req, res) => {
      if (req.url!.startsWith('/elsewhere')) reached++;
      res.writeHead(307, { location: '/elsewhere' }).end();
    });
    await new Promise<void>((resolve) => other!.listen(0, '127.0.0.1', resolve));
    const { url } = await start({ sdkUrl: `http://127.0.0.1:${(other.address() as AddressInfo).port}`, retries: 0 });
    const res = await post(url, experienceBody(1));
    expect(res.status).toBe(502);
    expect(reached).toBe(0);
  });

  it('refuses a body past maxBodyBytes, declared or streamed without a length, with 413', async () => {
    const { url } = await start({ maxBodyBytes: 1_000 });
    const headers = { 'content-type': 'application/json' };
    const declared = await raw(`${url}/v1/experiences/events`, { method: 'POST', headers: { ...headers, 'content-length': '5000' }, chunks: ['x'.repeat(5000)] });
    const streamed = await raw(`${url}/v1/experiences/events`, { method: 'POST', headers, chunks: Array.from({ length: 10 }, () => 'x'.repeat(500)) });
    expect([declared.status, streamed.status]).toEqual([413, 413]);
    expect(JSON.parse(streamed.body)).toMatchObject({ description: expect.stringContaining('1000 bytes') });
  });

  it('routes a path with dot segments as a URL parser resolves it, and 404s outside basePath', async () => {
    const { url } = await start();
    const dotted = await raw(`${url}/v1/x/../experiences/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      chunks: [JSON.stringify(experienceBody(1))],
    });
    expect(dotted.status).toBe(200);
    expect((await raw(`${front!.url}/other/v1/experiences/events`, { method: 'POST' })).status).toBe(404);
  });

  it('takes an Origin equal to the Host as same-origin, refuses a foreign one, and answers preflights', async () => {
    const { url } = await start({ allowedOrigins: ['https://shop.example'] });
    const same = await post(url, experienceBody(1), { origin: new URL(url).origin });
    expect(same.status).toBe(200);
    expect(same.headers.get('access-control-allow-origin')).toBeNull();
    expect((await post(url, experienceBody(1), { origin: 'https://evil.example' })).status).toBe(403);
    const preflight = await fetch(`${url}/v1/experiences/events`, { method: 'OPTIONS', headers: { origin: 'https://shop.example' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example');
  });

  it("gives the hooks the request's headers", async () => {
    const { url } = await start({ resolveCustomer: (request) => /session=(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1] });
    const body = experienceBody(1, 'alice');
    expect((await post(url, body, { cookie: 'session=alice' })).status).toBe(200);
    expect((await post(url, experienceBody(1, 'alice'), { cookie: 'session=bob' })).status).toBe(403);
    expect((await post(url, experienceBody(1, 'alice'))).status).toBe(401);
  });

  it('answers the probes on the same path, HEAD without a body', async () => {
    await start();
    const head = await raw(`${front!.url}/healthz`, { method: 'HEAD' });
    expect(head).toEqual({ status: 200, body: '' });
    expect(await (await fetch(`${front!.url}/readyz`)).json()).toMatchObject({ status: 'ready' });
  });
});
