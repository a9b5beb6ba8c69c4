// Bad input anywhere gets the operation's own error body and status, and the server keeps serving.
import { describe, expect, it } from 'vitest';
import { anyId, call, route, useEmulator, xpBody } from './helpers.ts';

const h = useEmulator({ limits: false }, { reset: false });

type Op = 'experienceEvents' | 'users' | 'events' | 'campaignUpdate' | 'fileImportStatus';
const OPS: Op[] = ['experienceEvents', 'users', 'events', 'campaignUpdate', 'fileImportStatus'];

describe('malformed JSON → 400 in each shape', () => {
  const expected: Record<Op, unknown> = {
    experienceEvents: { title: 'Malformed JSON', description: 'Could not decode the request body: not valid UTF-8 JSON', code: anyId },
    users: {
      status: 'fail',
      error: { message: 'Could not decode the request body. The JSON was incorrect or not encoded as UTF-8.', type: 'Malformed JSON', request_id: anyId },
    },
    events: {
      status: 'fail',
      error: { message: 'Could not decode the request body. The JSON was incorrect or not encoded as UTF-8.', type: 'Malformed JSON', request_id: anyId },
    },
    campaignUpdate: {
      error: {
        code: '400 Bad Request',
        message: 'Expecting value: the request body is not valid UTF-8 JSON',
        target: '',
        details: [{ target: '', message: 'Expecting value: the request body is not valid UTF-8 JSON' }],
        request_id: anyId,
      },
    },
    fileImportStatus: { status: 'FAILURE', error_type: 'Invalid Request', message: 'Could not decode the request body: not valid UTF-8 JSON' },
  };
  for (const op of OPS) {
    it(op, async () => {
      for (const raw of ['{"elements": [', '', 'undefined', "{'a': 1}"]) {
        const res = await call(h, op, raw, { raw: true });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(expected[op]);
      }
    });
  }
  it('invalid UTF-8 bytes are malformed too', async () => {
    const r = route('users');
    const res = await fetch(h.url + r.path, { method: 'POST', headers: r.headers, body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) });
    expect(res.status).toBe(400);
    expect((await res.json()).error.type).toBe('Malformed JSON');
  });
});

describe('wrong content type → 415', () => {
  const expected: Record<Op, unknown> = {
    experienceEvents: { title: 'Unsupported media type', description: 'Content type is not supported', code: anyId },
    users: { status: 'fail', error: { message: 'Unsupported Media Type', type: 'MediaTypeError', request_id: anyId } },
    events: { status: 'fail', error: { message: 'Content type is not supported', type: 'Unsupported media type', request_id: anyId } },
    campaignUpdate: {
      error: {
        code: '415 Unsupported Media Type',
        message: 'Content type is not supported',
        target: '',
        details: [{ target: '', message: 'Content type is not supported' }],
        request_id: anyId,
      },
    },
    fileImportStatus: { title: 'Unsupported media type', description: 'Content type is not supported' },
  };
  for (const op of OPS) {
    it(op, async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
        const res = await call(h, op, {}, { headers: { 'content-type': type } });
        expect(res.status).toBe(415);
        expect(res.body).toEqual(expected[op]);
      }
      // A charset parameter is fine.
      const fine = await call(h, op, {}, { headers: { 'content-type': 'application/json; charset=utf-8' } });
      expect(fine.status).not.toBe(415);
    });
  }
});

describe('oversized body → 413, and the connection stays usable', () => {
  const limits: Record<Op, number> = { experienceEvents: 1024 * 1024, users: 128 * 1024, events: 128 * 1024, campaignUpdate: 1024 * 1024, fileImportStatus: 64 * 1024 };
  for (const op of OPS) {
    it(op, async () => {
      const res = await call(h, op, `{"x":"${'a'.repeat(limits[op])}"}`, { raw: true });
      expect(res.status).toBe(413);
      // The same keep-alive connection serves the next request.
      const next = await call(h, op, '{', { raw: true });
      expect(next.status).toBe(400);
    });
  }
  it('a body streamed without Content-Length is cut at the limit too', async () => {
    const r = route('events');
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 4) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(h.url + r.path, { method: 'POST', headers: r.headers, body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error.type).toBe('PayloadTooLarge');
  });
});

describe('deeply nested JSON and __proto__ keys → 400, no prototype pollution', () => {
  it('nesting deeper than 32 levels is refused in the operation shape', async () => {
    const deep = '{"type":"customer","customer_id":"u-42","attributes":{"a":' + '['.repeat(50_000) + ']'.repeat(50_000) + '}}';
    const res = await call(h, 'users', deep, { raw: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'InvalidAttributeError', attribute: expect.stringMatching(/^attributes\.a(\[0\])+$/) });
    expect(res.body.error.message).toMatch(/must not nest deeper than 32 levels$/);
    const xp = await call(h, 'experienceEvents', '{"elements":' + '['.repeat(100) + ']'.repeat(100) + '}', { raw: true });
    expect(xp.status).toBe(400);
    expect(xp.body.title).toBe('Invalid Field Value');
  });

  it('__proto__ anywhere is refused and nothing reaches Object.prototype', async () => {
    const raw = '{"type":"customer","customer_id":"u-42","attributes":{"__proto__":{"polluted":"yes"},"name":"x"}}';
    const res = await call(h, 'users', raw, { raw: true });
    expect(res).toMatchObject({
      status: 400,
      body: {
        status: 'fail',
        error: { attribute: 'attributes.__proto__', message: 'attributes.__proto__ is a reserved key and is not allowed', type: 'InvalidAttributeError' },
      },
    });
    const campaign = await call(h, 'campaignUpdate', '{"request_id":"r","updated_by":"a@b.co","__proto__":{"polluted":"yes"}}', { raw: true });
    expect(campaign.status).toBe(400);
    expect(campaign.body.error.target).toBe('__proto__');
    const events = await call(h, 'events', '{"type":"event","customer_id":"u-42","actions":[{"action":"A","attributes":{"__proto__":{"polluted":1}}}]}', { raw: true });
    expect(events.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(h.emulator.getUsers().count).toBe(0);
  });

  it('constructor and prototype keys are plain data', async () => {
    const res = await call(h, 'users', { type: 'customer', customer_id: 'u-43', attributes: { constructor: 'x', prototype: 'y' } });
    expect(res.status).toBe(200);
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
  });
});

describe('wrong method → 405, unknown path → 404', () => {
  it('405 in each shape, with Allow', async () => {
    for (const op of OPS) {
      const res = await call(h, op, {}, { method: op === 'campaignUpdate' ? 'POST' : 'PUT' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(op === 'campaignUpdate' ? 'PATCH' : 'POST');
    }
    const get = await fetch(`${h.url}/v1.0/data/fileimports/import/status`);
    expect(get.status).toBe(405);
    expect(await get.json()).toEqual({ status: 'fail', message: 'Method not allowed' });
    const users = await fetch(`${h.url}/v1/customer/ENGAGEDEMO01`, { method: 'DELETE' });
    expect(await users.json()).toEqual({ status: 'fail', error: { message: 'Method not allowed', type: 'MethodNotAllowed', request_id: expect.any(String) } });
  });

  it('404 in the shape of the API family the path belongs to', async () => {
    const fi = await fetch(`${h.url}/v1.0/data/fileimports/import/nope`, { method: 'POST' });
    expect([fi.status, await fi.json()]).toEqual([404, { status: 'fail', data: 'Resource not found.' }]);
    const users = await fetch(`${h.url}/v1/customer/ENGAGEDEMO01/extra`, { method: 'POST' });
    expect(users.status).toBe(404);
    expect((await users.json()).error.type).toBe('NotFound');
    const other = await fetch(`${h.url}/wp-admin.php`);
    expect([other.status, await other.json()]).toEqual([404, { title: 'Not Found', description: 'Resource not found' }]);
  });
});

describe('after all of that', () => {
  it('the server still serves valid requests', async () => {
    expect((await call(h, 'experienceEvents', xpBody())).status).toBe(200);
  });
});
