// What the proxy does with the upstream's answers: dedup, retries, pass-through, limits, secrets.
import { afterEach, describe, expect, it } from 'vitest';
import { createProxy } from '../../src/proxy/create-proxy';
import { createMemoryStore } from '../../src/proxy/stores/memory-store';
import type { ProxyLogEntry, ProxyStore } from '../../src/proxy/types';
import { serve } from '../../src/proxy/node/serve';
import { basic, experienceBody, harness, KEYS, type Harness, PAGE_HEADERS, startInFreshWindow } from './support';

let h: Harness;
afterEach(async () => {
  await h?.close();
  h = undefined as unknown as Harness;
});

const XP = '/v1/experiences/events';

describe('dedup memory', () => {
  // Next.js hands route handlers a request.url on `localhost` whatever the browser addressed:
  // same-origin is the Host the browser sent, which a page cannot choose.
  it('takes the Host the browser sent as its own origin, whatever host request.url names', async () => {
    h = await harness();
    const request = (origin: string) =>
      h!.proxy(
        new Request(`http://localhost:3000/engage/v1/experiences/events`, {
          method: 'POST',
          headers: { host: '127.0.0.1:3000', origin, ...PAGE_HEADERS },
          body: JSON.stringify(experienceBody()),
        }),
      );
    expect((await request('http://127.0.0.1:3000')).status).toBe(200);
    expect((await request('http://localhost:3000')).status).toBe(403);
    expect((await request('https://evil.example')).status).toBe(403);
  });

  it('answers a re-sent batch with success without forwarding it again', async () => {
    h = await harness();
    const body = experienceBody(3);
    expect((await h.call(XP, { json: body })).status).toBe(200);
    const again = await h.call(XP, { json: body });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-engage-deduplicated')).toBe('3');
    expect(await again.json()).toMatchObject({ status: 'success' });
    expect(await h.upstream.received()).toHaveLength(1);
    expect(await h.upstream.experienceEvents()).toMatchObject({ unique: 3, duplicates: 0 });
  });

  it('strips already-forwarded actions from a mixed batch and forwards only the new ones', async () => {
    h = await harness();
    const first = experienceBody(2);
    await h.call(XP, { json: first });
    const fresh = experienceBody(1).elements[0]!.actions[0]!;
    const mixed = { elements: [{ ...first.elements[0]!, actions: [...first.elements[0]!.actions, fresh] }] };
    const res = await h.call(XP, { json: mixed });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-engage-deduplicated')).toBe('2');
    expect(await h.upstream.received()).toHaveLength(2);
    const forwarded = JSON.parse(h.sent[1]!.body);
    expect(forwarded.elements[0].actions.map((a: { svc_event_uuid: string }) => a.svc_event_uuid)).toEqual([fresh.svc_event_uuid]);
  });

  it('does not remember events the upstream refused, so a fixed re-send goes through', async () => {
    h = await harness();
    const body = experienceBody(1);
    await h.upstream.fault({ statuses: [400], count: 1 });
    expect((await h.call(XP, { json: body })).status).toBe(400);
    expect((await h.call(XP, { json: body })).status).toBe(200);
    expect(await h.upstream.received()).toHaveLength(2);
  });
});

describe('upstream failures', () => {
  it('retries experience events on 5xx and answers the success', async () => {
    h = await harness();
    await h.upstream.fault({ statuses: [503], count: 2 });
    const res = await h.call(XP, { json: experienceBody() });
    expect(res.status).toBe(200);
    expect((await h.upstream.received()).map((r) => r.status)).toEqual([503, 503, 200]);
    expect(await h.upstream.experienceEvents()).toMatchObject({ unique: 1 });
  });

  it('retries experience events after a connection reset', async () => {
    h = await harness();
    await h.upstream.fault({ statuses: ['reset'], count: 1 });
    const res = await h.call(XP, { json: experienceBody() });
    expect(res.status).toBe(200);
    expect(await h.upstream.received()).toHaveLength(2);
  });

  it('passes the last 5xx through after its retries', async () => {
    h = await harness({ retries: 1 });
    await h.upstream.fault({ statuses: [500], count: 5 });
    const res = await h.call(XP, { json: experienceBody() });
    expect(res.status).toBe(500);
    expect(await h.upstream.received()).toHaveLength(2);
  });

  it('answers 502 when the upstream cannot be reached at all', async () => {
    h = await harness({ retries: 1 });
    await h.upstream.fault({ statuses: ['reset'], count: 5 });
    const res = await h.call(XP, { json: experienceBody() });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ title: 'Bad Gateway' });
  });

  it('answers 504 when the upstream does not answer in time', async () => {
    h = await harness({ retries: 0, upstreamTimeoutMs: 50 });
    await h.upstream.fault({ count: 1, latencyMs: 1_000 });
    const res = await h.call(XP, { json: experienceBody() });
    expect(res.status).toBe(504);
  });

  it('never retries users or events (not idempotent)', async () => {
    h = await harness({ operations: ['users', 'events'] });
    await h.upstream.fault({ statuses: [500], count: 5 });
    const res = await h.call('/v1/event', { json: { type: 'event', customer_id: 'user-42', actions: [{ action: 'Bought' }] } });
    expect(res.status).toBe(500);
    expect(await h.upstream.received()).toHaveLength(1);
  });

  it('passes 429 through with a Retry-After', async () => {
    h = await harness();
    await h.upstream.fault({ statuses: [429], count: 1, retryAfterSeconds: 7 });
    const res = await h.call(XP, { json: experienceBody() });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await h.upstream.received()).toHaveLength(1);
  });

  it('passes 401 through after a key rotation upstream, and picks up the new key without restart', async () => {
    let keys = { ...KEYS };
    h = await harness({ keys: () => keys });
    expect((await h.call(XP, { json: experienceBody() })).status).toBe(200);
    const rotated = await fetch(`${h.upstream.url}/_emulator/keys/rotate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tile: 'personalize' }),
    });
    const { key } = (await rotated.json()) as { key: string };
    const refused = await h.call(XP, { json: experienceBody() });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ title: 'Authentication required' });
    keys = { ...KEYS, personalize: key };
    expect((await h.call(XP, { json: experienceBody() })).status).toBe(200);
    expect((await h.upstream.received()).map((r) => r.status)).toEqual([200, 401, 200]);
    expect(h.sent[2]!.headers.authorization).toBe(basic(key));
  });
});

describe('limits', () => {
  it('gives back what a refused request counted, so it spends no budget', async () => {
    h = await harness({
      rateLimits: { experienceEvents: { client: [{ limit: 4, windowMs: 60_000 }], workspace: [{ limit: 3, windowMs: 60_000 }] } },
    });
    expect((await h.call(XP, { json: experienceBody(4) })).status).toBe(429); // workspace refuses 4 > 3
    // Had the refused request kept its 4 client units, this one would be refused by the client budget.
    expect((await h.call(XP, { json: experienceBody(3) })).status).toBe(200);
    expect((await h.call(XP, { json: experienceBody(1) })).status).toBe(429);
    expect(await h.upstream.received()).toHaveLength(1);
  });

  it('counts per client address, so one client cannot spend another one’s budget', async () => {
    h = await harness({ rateLimits: { experienceEvents: { client: [{ limit: 2, windowMs: 60_000 }] } } });
    expect((await h.call(XP, { json: experienceBody(2), clientAddress: '198.51.100.1' })).status).toBe(200);
    expect((await h.call(XP, { json: experienceBody(1), clientAddress: '198.51.100.1' })).status).toBe(429);
    expect((await h.call(XP, { json: experienceBody(2), clientAddress: '198.51.100.2' })).status).toBe(200);
  });

  it('mirrors the file-import status quota of 50 requests per minute by default', async () => {
    h = await harness({ operations: ['fileImportStatus'], authorize: () => true });
    // 51 calls across a minute's end would meet two budgets of 50 (a CI run got 51 through).
    await startInFreshWindow(60_000, 10_000);
    for (let i = 0; i < 50; i++) expect((await h.call('/v1.0/data/fileimports/import/status', { json: {} })).status).toBe(200);
    const res = await h.call('/v1.0/data/fileimports/import/status', { json: {} });
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ status: 'fail', error: { type: 'Rate Limits Exceeded' } });
    expect(await h.upstream.received()).toHaveLength(50);
  });
});

describe('identity and headers', () => {
  it('fills in customer_id from the session when the body has none', async () => {
    h = await harness({ resolveCustomer: () => 'user-42' });
    const body = experienceBody(1);
    delete (body.elements[0] as { customer_id?: string }).customer_id;
    expect((await h.call(XP, { json: body })).status).toBe(200);
    const [got] = h.sent;
    expect(JSON.parse(got!.body).elements[0].customer_id).toBe('user-42');
  });

  it('never forwards Authorization, Cookie or other incoming headers', async () => {
    h = await harness();
    await h.call(XP, {
      json: experienceBody(),
      headers: { authorization: 'Bearer browser-token', cookie: 'session=abc', 'x-custom': '1', 'svc-appkey': 'OTHER' },
    });
    const [got] = h.sent;
    expect(got!.headers.authorization).toBe(basic(KEYS.personalize));
    expect(got!.headers.cookie).toBeUndefined();
    expect(got!.headers['x-custom']).toBeUndefined();
    expect(got!.headers['svc-appkey']).toBe('ENGAGEDEMO01');
  });

  it('discards X-Forwarded-For from an untrusted peer and sends the peer address', async () => {
    h = await harness();
    await h.call(XP, { json: experienceBody(), headers: { 'x-forwarded-for': '1.2.3.4' }, clientAddress: '203.0.113.7' });
    const [got] = h.sent;
    expect(got!.headers['x-forwarded-for']).toBe('203.0.113.7');
  });

  it('keeps the hops a trusted proxy vouches for, dropping what the client wrote before them', async () => {
    h = await harness({ trustedProxies: ['10.0.0.0/8'] });
    await h.call(XP, {
      json: experienceBody(),
      headers: { 'x-forwarded-for': '6.6.6.6, 198.51.100.9, 10.1.2.3' },
      clientAddress: '::ffff:10.0.0.2',
    });
    const [got] = h.sent;
    expect(got!.headers['x-forwarded-for']).toBe('198.51.100.9, 10.1.2.3, 10.0.0.2');
  });

  it('adds CORS headers (and exposes Retry-After) to answers for allowed origins', async () => {
    h = await harness({ allowedOrigins: ['https://www.example.com'] });
    const res = await h.call(XP, { json: experienceBody(), headers: { origin: 'https://www.example.com' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://www.example.com');
    expect(res.headers.get('access-control-expose-headers')).toContain('Retry-After');
  });

  it('lets same-origin requests through without a list entry', async () => {
    h = await harness({ allowedOrigins: [] });
    const res = await h.call(XP, { json: experienceBody(), headers: { origin: 'https://shop.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('secrets', () => {
  it('never puts a key in a log line or a response, whatever happens', async () => {
    const lines: string[] = [];
    const logger = (entry: ProxyLogEntry) => lines.push(JSON.stringify(entry));
    h = await harness({ logger, operations: ['experienceEvents', 'users'], retries: 0 });
    const bodies: string[] = [];
    const run = async (fault?: Parameters<Harness['upstream']['fault']>[0]) => {
      if (fault) await h.upstream.fault(fault);
      bodies.push(await (await h.call(XP, { json: experienceBody() })).text());
      bodies.push(await (await h.call('/v1/customer', { json: { type: 'customer', customer_id: 'u-1', attributes: {} } })).text());
    };
    await run();
    await run({ statuses: [401], count: 2 });
    await run({ statuses: [500], count: 2 });
    await run({ statuses: ['reset'], count: 2 });
    await run({ statuses: [429], count: 2 });
    expect(lines.length).toBe(10);
    for (const text of [...lines, ...bodies]) {
      for (const key of Object.values(KEYS)) expect(text).not.toContain(key);
      expect(text).not.toContain(basic(KEYS.personalize).slice(6));
    }
  });
});

describe('redirects', () => {
  it('never follows an upstream redirect (the Authorization header must not travel): 502', async () => {
    let calls = 0;
    h = await harness({
      fetch: async (input, init) => {
        calls++;
        expect(init?.redirect).toBe('manual');
        return new Response(null, { status: 302, headers: { location: 'https://elsewhere.example/steal' } });
      },
    });
    const res = await h.call(XP, { json: experienceBody() });
    expect(res.status).toBe(502);
    expect(calls).toBe(1);
  });
});

describe('a page that closes during a flush (over HTTP, through serve)', () => {
  it('finishes the forward anyway, so the re-send from the next page is answered from memory', async () => {
    const finished: ProxyLogEntry[] = [];
    h = await harness({ logger: (entry) => finished.push(entry) });
    const server = await serve(h.proxy, { port: 0 });
    try {
      await h.upstream.fault({ latencyMs: 300, count: 1 });
      const body = experienceBody(2);
      const page = new AbortController();
      const flush = fetch(`${server.url}/engage${XP}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: page.signal,
      }).catch((error: unknown) => error);
      // The proxy has forwarded (the upstream is still busy for 300 ms): now the page goes away.
      await expect.poll(() => h.sent.length, { timeout: 5_000 }).toBe(1);
      page.abort();
      expect(await flush).toBeInstanceOf(Error);
      // The proxy logs a request once it is completely done (forwarded and remembered).
      await expect.poll(() => finished.length, { timeout: 5_000 }).toBe(1);
      expect(finished[0]).toMatchObject({ status: 200, upstreamStatus: 200 });
      expect(await h.upstream.experienceEvents()).toMatchObject({ unique: 2 });
      const nextPage = await fetch(`${server.url}/engage${XP}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(nextPage.status).toBe(200);
      expect(nextPage.headers.get('x-engage-deduplicated')).toBe('2');
      expect(await h.upstream.received()).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('is safe when the upstream stored a batch but the connection dropped before the answer', async () => {
    h = await harness();
    await h.upstream.fault({ statuses: ['reset-after'], count: 1 });
    const res = await h.call(XP, { json: experienceBody(1) });
    expect(res.status).toBe(200);
    // Retried with the same UUID; the upstream deduplicated it.
    expect(await h.upstream.experienceEvents()).toMatchObject({ unique: 1, duplicates: 1 });
  });
});

describe('store', () => {
  it('shares dedup memory and budgets between proxy instances given one store', async () => {
    const store = createMemoryStore();
    h = await harness({ store });
    const second = createProxy({ workspaceId: 'ENGAGEDEMO01', keys: KEYS, sdkUrl: h.upstream.url, store });
    const body = experienceBody(2);
    expect((await h.call(XP, { json: body })).status).toBe(200);
    const res = await second(new Request('https://shop.example/v1/experiences/events', { method: 'POST', headers: PAGE_HEADERS, body: JSON.stringify(body) }), {
      clientAddress: '203.0.113.7',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-engage-deduplicated')).toBe('2');
    expect(await h.upstream.received()).toHaveLength(1);
  });

  it('keeps delivering when the store fails (no limits, no memory for that request) and logs it', async () => {
    const entries: ProxyLogEntry[] = [];
    const broken: ProxyStore = {
      increment: () => Promise.reject(new Error('redis down')),
      claim: () => Promise.reject(new Error('redis down')),
      commit: () => Promise.reject(new Error('redis down')),
      release: () => Promise.reject(new Error('redis down')),
    };
    h = await harness({ store: broken, logger: (e) => entries.push(e) });
    const body = experienceBody(1);
    expect((await h.call(XP, { json: body })).status).toBe(200);
    expect((await h.call(XP, { json: body })).status).toBe(200);
    expect(await h.upstream.experienceEvents()).toMatchObject({ unique: 1, duplicates: 1 });
    expect(entries.map((e) => e.level)).toEqual(['warn', 'warn']);
    expect(entries[0]!.message).toMatch(/^store failed/);
  });

  it('forwards every re-send when the dedup memory is off', async () => {
    h = await harness({ dedupWindowMs: 0 });
    const body = experienceBody(1);
    await h.call(XP, { json: body });
    await h.call(XP, { json: body });
    expect(await h.upstream.received()).toHaveLength(2);
  });
});

describe('configuration', () => {
  it('refuses at start-up a static key that could split a header, without showing it', () => {
    expect(() => createProxy({ workspaceId: 'W', keys: { personalize: 'sec\r\nret' }, sdkUrl: 'http://127.0.0.1:1' })).toThrow(
      'createProxy: keys.personalize contains characters that cannot go in a header (CR, LF or other control characters)',
    );
  });

  it('names the missing upstream URL and key of an enabled operation', () => {
    expect(() => createProxy({ workspaceId: 'W', keys: {}, operations: ['users'] })).toThrow("createProxy: baseUrl is required for the 'users' operation");
    expect(() => createProxy({ workspaceId: 'W', keys: {}, baseUrl: 'http://127.0.0.1:1', operations: ['users'] })).toThrow(
      "createProxy: keys.data is required for the 'users' operation",
    );
    expect(() => createProxy({ workspaceId: 'W', keys: { personalize: 'k' }, sdkUrl: 'ftp://x' })).toThrow(/sdkUrl must be an http\(s\) URL/);
    expect(() => createProxy({ workspaceId: 'W', keys: { personalize: 'k' }, sdkUrl: 'http://x', allowedOrigins: ['*'] })).toThrow(/allowedOrigins/);
  });
});

describe('behind a TLS-terminating reverse proxy', () => {
  it('treats the public origin a trusted proxy reports as same-origin, and nobody else’s claim', async () => {
    h = await harness({ trustedProxies: ['10.0.0.1'] });
    const send = (clientAddress: string) =>
      h.proxy(
        new Request('http://internal:8080/engage/v1/experiences/events', {
          method: 'POST',
          headers: { ...PAGE_HEADERS, origin: 'https://shop.example', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'shop.example:443' },
          body: JSON.stringify(experienceBody()),
        }),
        { clientAddress },
      );
    expect((await send('10.0.0.1')).status).toBe(200);
    expect((await send('198.51.100.20')).status).toBe(403);
    expect(await h.upstream.received()).toHaveLength(1);
  });
});

describe('identity resolution', () => {
  const identifierOnly = { type: 'customer', attributes: { svc_mobile: '+919999999999', name: 'Asha' } };
  const identityResolution = { identifiers: ['svc_mobile'] };

  it('refuses a users body without customer_id unless the workspace resolves identities', async () => {
    h = await harness({ operations: ['users'] }, { identityResolution });
    const res = await h.call('/v1/customer', { json: identifierOnly });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 'fail', error: { attribute: 'customer_id' } });
    expect(await h.upstream.received()).toHaveLength(0);
  });

  it('forwards an identifier-only users body when configured with the same identifiers', async () => {
    h = await harness({ operations: ['users'], identityResolution }, { identityResolution });
    const res = await h.call('/v1/customer', { json: identifierOnly });
    expect(res.status).toBe(200);
    expect((await h.upstream.received()).map((r) => r.status)).toEqual([200]);
  });
});
