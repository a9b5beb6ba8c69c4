// Every refusal answers in the operation's upstream error shape and reaches nothing upstream.
import { afterEach, describe, expect, it } from 'vitest';
import { createProxy } from '../../src/proxy/create-proxy';
import { experienceBody, harness, KEYS, PROXY_ORIGIN, type Harness } from './support';

let h: Harness | undefined;
afterEach(async () => {
  const current = h;
  h = undefined;
  if (!current) return;
  try {
    expect(await current.upstream.received(), 'the upstream must have received nothing').toHaveLength(0);
    expect(current.sent).toHaveLength(0);
  } finally {
    await current.close();
  }
});

const XP = '/v1/experiences/events';

describe('origin', () => {
  it('refuses a request from an origin not on the list, without CORS headers', async () => {
    h = await harness({ allowedOrigins: ['https://www.example.com'] });
    const res = await h.call(XP, { json: experienceBody(), headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await res.json()).toMatchObject({ title: 'Forbidden', description: 'Origin not allowed' });
  });

  it('refuses the preflight of an origin not on the list', async () => {
    h = await harness({ allowedOrigins: ['https://www.example.com'] });
    const res = await h.call(XP, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers the preflight of an allowed origin with methods, Content-Type and a max age', async () => {
    h = await harness({ allowedOrigins: ['https://www.example.com'] });
    const res = await h.call(XP, {
      method: 'OPTIONS',
      headers: { origin: 'https://www.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://www.example.com');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type');
    expect(res.headers.get('access-control-max-age')).toBe('7200');
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('answers preflights with the configured extra request headers', async () => {
    h = await harness({ allowedOrigins: ['https://www.example.com'], allowedHeaders: ['Content-Type', 'X-CSRF-Token'], allowCredentials: true });
    const res = await h.call(XP, {
      method: 'OPTIONS',
      headers: { origin: 'https://www.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-csrf-token' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type, X-CSRF-Token');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('refuses Origin: null (sandboxed frames, file:// pages)', async () => {
    h = await harness({ allowedOrigins: ['https://www.example.com'] });
    const res = await h.call(XP, { json: experienceBody(), headers: { origin: 'null' } });
    expect(res.status).toBe(403);
  });
});

describe('operations', () => {
  it('refuses users and events unless opted in (default: experience events only)', async () => {
    h = await harness();
    const users = await h.call('/v1/customer', { json: { type: 'customer', customer_id: 'user-42', attributes: {} } });
    expect(users.status).toBe(403);
    expect(await users.json()).toMatchObject({ status: 'fail', error: { message: "Operation 'users' is not enabled on this proxy" } });
    const events = await h.call('/v1/event', { json: { type: 'event', customer_id: 'user-42', actions: [{ action: 'x' }] } });
    expect(events.status).toBe(403);
  });

  it('refuses an administrative operation when authorize says no (campaign error shape)', async () => {
    h = await harness({ operations: ['campaignUpdate', 'fileImportStatus'], authorize: () => false });
    const res = await h.call('/core-services/v1/campaigns/camp_1', { method: 'PATCH', json: { request_id: 'r', updated_by: 'a@b.co' } });
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body.error.code).toBe('403 Forbidden');
    const fi = await h.call('/v1.0/data/fileimports/import/status', { json: {} });
    expect(fi.status).toBe(403);
  });

  it('refuses a campaign update the upstream would refuse (push advanced group), in the V1 shape, before forwarding', async () => {
    h = await harness({ operations: ['campaignUpdate'], authorize: () => true });
    const res = await h.call('/core-services/v1/campaigns/camp_1', {
      method: 'PATCH',
      json: { request_id: 'r', updated_by: 'a@b.co', advanced: { apns_priority: '7' } },
    });
    expect(res.status).toBe(400);
    const message = "advanced.apns_priority must be one of '1', '5', '10'";
    expect(await res.json()).toMatchObject({
      error: { code: '400 Bad Request', target: 'advanced.apns_priority', message, details: [{ target: 'advanced.apns_priority', message }] },
    });
  });

  it('refuses when authorize throws, without crashing', async () => {
    h = await harness({
      operations: ['fileImportStatus'],
      authorize: () => {
        throw new Error('session store down');
      },
    });
    const res = await h.call('/v1.0/data/fileimports/import/status', { json: {} });
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('session store down');
  });

  it('will not start an administrative operation without an authorize hook', () => {
    expect(() => createProxy({ workspaceId: 'W1', keys: KEYS, baseUrl: 'http://127.0.0.1:1', operations: ['campaignUpdate'] })).toThrow(
      /'campaignUpdate' is administrative and needs an authorize/,
    );
  });

  it('answers 405 with Allow for the wrong method, and 404 for unknown paths', async () => {
    h = await harness();
    const get = await h.call(XP, { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await h.call('/v1/nothing', { json: {} })).status).toBe(404);
    expect((await h.call('/../v1/experiences/events', { json: experienceBody() })).status).toBe(404);
  });
});

describe('size and media type', () => {
  it('refuses a body over the limit with 413 (declared length)', async () => {
    h = await harness({ maxBodyBytes: 1_000 });
    const res = await h.call(XP, { json: experienceBody(20) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ title: 'Payload Too Large' });
  });

  it('refuses a streamed body over the limit with 413 (no declared length)', async () => {
    h = await harness({ maxBodyBytes: 1_000 });
    const chunk = new TextEncoder().encode(JSON.stringify(experienceBody(5)));
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(chunk);
        c.close();
      },
    });
    const res = await h.proxy(
      new Request(`${PROXY_ORIGIN}/engage${XP}`, { method: 'POST', body: stream, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit),
    );
    expect(res.status).toBe(413);
  });

  it('refuses a non-JSON content type with 415', async () => {
    h = await harness({ operations: ['users'] });
    const res = await h.call('/v1/customer', { method: 'POST', body: 'type=customer', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ status: 'fail', error: { type: 'MediaTypeError' } });
  });

  it('refuses malformed JSON with 400 in the upstream shape', async () => {
    h = await harness();
    const res = await h.call(XP, { method: 'POST', body: '{"elements": [', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ title: 'Malformed JSON' });
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After once a client spends its budget, and counts events not requests', async () => {
    h = await harness({ rateLimits: { experienceEvents: { client: [{ limit: 5, windowMs: 60_000 }] } } });
    // 6 events in one request exceed a budget of 5 events.
    const res = await h.call(XP, { json: experienceBody(6) });
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await res.json()).toMatchObject({ title: 'Rate Limits Exceeded' });
  });
});

describe('identity', () => {
  it('refuses a body naming another customer than the session (403) and a request without session (401)', async () => {
    h = await harness({ resolveCustomer: (r) => r.headers.get('x-test-session') ?? undefined });
    const spoofed = await h.call(XP, { json: experienceBody(1, 'someone-else'), headers: { 'x-test-session': 'user-42' } });
    expect(spoofed.status).toBe(403);
    expect(await spoofed.json()).toMatchObject({ description: 'elements[0].customer_id does not match the signed-in customer' });
    const anonymous = await h.call(XP, { json: experienceBody(1, 'user-42') });
    expect(anonymous.status).toBe(401);
  });
});

describe('path tricks and header injection', () => {
  for (const id of ['..%2F..%2Fv1%2Fcustomer%2FX', 'camp%0D%0AX-Injected:%201', 'a%2Fb', 'camp%5C..', '%2e%2e%2fx', 'a b', 'x'.repeat(129)]) {
    it(`refuses campaign id ${id.slice(0, 30)}`, async () => {
      h = await harness({ operations: ['campaignUpdate'], authorize: () => true });
      const res = await h.call(`/core-services/v1/campaigns/${id}`, { method: 'PATCH', json: { request_id: 'r', updated_by: 'a@b.co' } });
      expect([400, 404]).toContain(res.status);
      if (res.status === 400) expect((await res.json()).error.target).toBe('campaign_id');
    });
  }

  it('refuses to send a key that could split a header, and says nothing about it', async () => {
    const bad = 'abc\r\nX-Evil: 1';
    h = await harness({ keys: () => ({ personalize: bad }) });
    const res = await h.call(XP, { json: experienceBody() });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('abc');
    expect(text).not.toContain('X-Evil');
  });
});

describe('validation before forwarding (shared upstream rules, upstream error shapes)', () => {
  it('experience events: an unknown action', async () => {
    h = await harness();
    const body = experienceBody(1);
    body.elements[0]!.actions[0]!.action = 'SVC_PERSONALIZATION_MESSAGE_HOVERED';
    const res = await h.call(XP, { json: body });
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json).toMatchObject({ title: 'Invalid Field Value' });
    expect(json.description).toContain('elements[0].actions[0].action');
    expect(typeof json.code).toBe('string');
  });

  it('experience events: more than 100 elements', async () => {
    h = await harness();
    const one = experienceBody(1).elements[0]!;
    const res = await h.call(XP, { json: { elements: Array.from({ length: 101 }, () => one) } });
    expect(res.status).toBe(400);
    expect((await res.json()).description).toContain('elements');
  });

  it('users: a missing customer_id', async () => {
    h = await harness({ operations: ['users'] });
    const res = await h.call('/v1/customer', { json: { type: 'customer', attributes: { plan: 'gold' } } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 'fail', error: { attribute: 'customer_id', type: 'MissingAttributeError' } });
  });

  it('events: an empty actions array', async () => {
    h = await harness({ operations: ['events'] });
    const res = await h.call('/v1/event', { json: { type: 'event', customer_id: 'user-42', actions: [] } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 'fail', error: { attribute: 'actions' } });
  });

  it('campaign update: a missing request_id', async () => {
    h = await harness({ operations: ['campaignUpdate'], authorize: () => true });
    const res = await h.call('/core-services/v1/campaigns/camp_1', { method: 'PATCH', json: { updated_by: 'ops@example.com' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: '400 Bad Request', target: 'request_id' } });
  });

  it('file-import status: an unknown date format', async () => {
    h = await harness({ operations: ['fileImportStatus'], authorize: () => true });
    const res = await h.call('/v1.0/data/fileimports/import/status', {
      json: { date: { start_date: '2024-11-14', end_date: '2024-11-14', format: 'MM/DD/YYYY' } },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 'FAILURE' });
  });

  it('a __proto__ key anywhere in the body', async () => {
    h = await harness({ operations: ['users'] });
    const res = await h.call('/v1/customer', {
      method: 'POST',
      body: '{"type":"customer","customer_id":"user-42","attributes":{"__proto__":{"admin":true}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });
});
