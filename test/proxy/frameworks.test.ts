// The recipes of docs/proxy-node.md, with the real frameworks: the proxy mounted in Express and Fastify
// (through the (req, res) middleware) and in Hono (its Web handler), forwarding to the real emulator.
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createProxy } from '../../src/proxy/create-proxy';
import type { ProxyOptions } from '../../src/proxy/types';
import { createNodeMiddleware, serve, type RunningServer } from '../../src/proxy/node/serve';
import { experienceBody, KEYS, startUpstream, WORKSPACE, type Upstream } from './support';

const ORIGIN = 'https://shop.example';
let upstream: Upstream | undefined;
let site: RunningServer | { close(): Promise<void> } | undefined;
afterEach(async () => {
  await site?.close();
  await upstream?.close();
});

const options = (sdkUrl: string): ProxyOptions => ({
  workspaceId: WORKSPACE,
  keys: { personalize: KEYS.personalize, data: KEYS.data },
  sdkUrl,
  baseUrl: sdkUrl,
  operations: ['experienceEvents', 'users'],
  basePath: '/engage',
  allowedOrigins: [ORIGIN],
});

async function listen(app: express.Express): Promise<{ url: string; close(): Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** Events forwarded, a re-send deduplicated, a foreign origin refused; the app's own route still works. */
async function check(url: string, up: Upstream): Promise<void> {
  const body = experienceBody(2);
  const send = (origin: string) =>
    fetch(`${url}/engage/v1/experiences/events`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify(body) });
  const first = await send(ORIGIN);
  expect(first.status, await first.clone().text()).toBe(200);
  expect(first.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  expect((await send(ORIGIN)).headers.get('x-engage-deduplicated')).toBe('2');
  expect((await send('https://evil.example')).status).toBe(403);
  const stored = await up.experienceEvents();
  expect(stored.events.map((e) => e.svc_event_uuid).sort()).toEqual(body.elements[0]!.actions.map((a) => a.svc_event_uuid).sort());
  const preflight = await fetch(`${url}/engage/v1/experiences/events`, {
    method: 'OPTIONS',
    headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
  expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, ORIGIN]);
  const user = await fetch(`${url}/engage/v1/customer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'customer', customer_id: 'u-framework', attributes: { u_fn: 'Ada' } }),
  });
  expect(user.status).toBe(200);
  expect((await up.received()).map((r) => [r.operation, r.status])).toEqual([
    ['experienceEvents', 200],
    ['users', 200],
  ]);
  expect(await (await fetch(`${url}/hello`)).text()).toBe('app route');
}

describe('Express', () => {
  it('app.use(basePath, createNodeMiddleware(proxy)) before the body parser', async () => {
    upstream = await startUpstream();
    const app = express();
    app.use('/engage', createNodeMiddleware(createProxy(options(upstream.url))));
    app.use(express.json());
    app.get('/hello', (_req, res) => void res.send('app route'));
    const running = await listen(app);
    site = running;
    await check(running.url, upstream);
  });

  it('still forwards when express.json() already read the body', async () => {
    upstream = await startUpstream();
    const app = express();
    app.use(express.json());
    app.use('/engage', createNodeMiddleware(createProxy(options(upstream.url))));
    app.get('/hello', (_req, res) => void res.send('app route'));
    const running = await listen(app);
    site = running;
    await check(running.url, upstream);
  });
});

describe('Fastify', () => {
  it('a scope without body parsers, reply.hijack(), createNodeMiddleware(proxy)(request.raw, reply.raw)', async () => {
    upstream = await startUpstream();
    const middleware = createNodeMiddleware(createProxy(options(upstream.url)));
    const app = Fastify();
    await app.register(async (scope) => {
      // The proxy reads, bounds and validates bodies itself: leave the stream to it.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.all('/engage/*', (request, reply) => {
        reply.hijack();
        middleware(request.raw, reply.raw);
      });
    });
    app.get('/hello', async () => 'app route');
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    site = { close: () => app.close() };
    await check(url, upstream);
  });
});

describe('Hono', () => {
  it("app.all('/engage/*', (c) => proxy(c.req.raw))", async () => {
    upstream = await startUpstream();
    const proxy = createProxy(options(upstream.url));
    const app = new Hono();
    app.all('/engage/*', (c) => proxy(c.req.raw));
    app.get('/hello', (c) => c.text('app route'));
    // Hono's app.fetch is a Web handler: any server runs it (here Node's, through serve).
    site = await serve(async (request) => app.fetch(request));
    await check((site as RunningServer).url, upstream);
  });
});
