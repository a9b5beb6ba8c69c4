// Network, timeout and abort paths against real servers, and the exact requests the client puts
// on the wire (recorded by a fetch wrapper around the real fetch).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client';
import { createFileImports } from '../../src/client/file-imports';
import { isAbortedError, isEngageError, isNetworkError, isTimeoutError, isValidationError } from '../../src/errors';
import { serve } from '../../src/proxy/node/serve';
import { ADMIN_TOKEN, rejection, startStack, type Stack } from './support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const headers = { Authorization: `Bearer ${ADMIN_TOKEN}` };

/** A closed port on 127.0.0.1: connection refused. */
async function closedEndpoint(): Promise<string> {
  const server = await serve(async () => new Response('x'), { port: 0 });
  await server.close();
  return `${server.url}/engage`;
}

describe('what goes on the wire', () => {
  it('paths, methods, JSON headers and bodies of the four operations; caller headers added', async () => {
    const sent: Array<{ method: string; url: string; headers: Headers; body: unknown }> = [];
    const recording: typeof fetch = async (input, init) => {
      sent.push({
        method: init!.method!,
        url: input instanceof Request ? input.url : input.toString(),
        headers: new Headers(init!.headers),
        body: JSON.parse(init!.body as string),
      });
      return fetch(input, init);
    };
    const client = createClient({ endpoint: `${stack.endpoint}/`, fetch: recording, headers: { ...headers, 'X-App': 'back-office' } });
    await client.users.upsert({ customer_id: 'wire-user', attributes: { u_fn: 'W' } });
    await client.events.track('wire-user', { action: 'Wired' });
    await client.campaigns.update('camp_push_event', {
      channel: 'PUSH',
      request_id: 'r-1',
      updated_by: 'ops@example.com',
      delivery_controls: { campaign_throttle_rpm: 100 },
    });
    await client.fileImports.status({ import_type: ['USERS'] });
    expect(sent.map((s) => `${s.method} ${s.url.slice(stack.endpoint.length)}`)).toEqual([
      'POST /v1/customer',
      'POST /v1/event',
      'PATCH /core-services/v1/campaigns/camp_push_event',
      'POST /v1.0/data/fileimports/import/status',
    ]);
    expect(sent.map((s) => s.body)).toEqual([
      { type: 'customer', customer_id: 'wire-user', attributes: { u_fn: 'W' } },
      { type: 'event', customer_id: 'wire-user', device_id: 'wire-user', actions: [{ action: 'Wired' }] },
      { channel: 'PUSH', request_id: 'r-1', updated_by: 'ops@example.com', delivery_controls: { campaign_throttle_rpm: 100 } },
      { import_type: ['USERS'] },
    ]);
    for (const s of sent) {
      expect(s.headers.get('content-type')).toBe('application/json');
      expect(s.headers.get('accept')).toBe('application/json');
      expect(s.headers.get('x-app')).toBe('back-office');
    }
  });
});

describe('failures without an HTTP answer', () => {
  it('connection refused: NetworkError; a status query retries it, a write does not', async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const endpoint = await closedEndpoint();
    const read = await rejection(createFileImports({ endpoint, fetch: counting, retries: 2, retryBaseDelayMs: 1 }).status());
    expect(isNetworkError(read)).toBe(true);
    expect(calls).toBe(3);
    calls = 0;
    const write = await rejection(createClient({ endpoint, fetch: counting, retryBaseDelayMs: 1 }).events.track('net-user', { action: 'A' }));
    expect(isNetworkError(write)).toBe(true);
    expect(isEngageError(write) && write.code).toBe('ERR_NETWORK');
    expect(calls).toBe(1);
  });

  it('an answer slower than timeoutMs: TimeoutError (per attempt)', async () => {
    const s = await startStack();
    try {
      s.emulator.setFaults({ ratio: 0, latencyMs: 1500, count: 1, operations: ['users'] });
      const error = await rejection(createClient({ endpoint: s.endpoint, timeoutMs: 100 }).users.upsert({ customer_id: 'slow-user' }));
      expect(isTimeoutError(error)).toBe(true);
      expect(error.timeoutMs).toBe(100);
    } finally {
      await s.close();
    }
  });

  it('the caller aborts in flight: AbortedError, and no retry even for a read', async () => {
    const s = await startStack();
    try {
      s.emulator.setFaults({ ratio: 0, latencyMs: 1500, operations: ['fileImportStatus'] });
      const controller = new AbortController();
      const pending = createFileImports({ endpoint: s.endpoint, headers }).status({}, { signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      expect(isAbortedError(await rejection(pending))).toBe(true);
    } finally {
      s.emulator.clearFaults();
      await s.close();
    }
  });

  it('an already-aborted signal: AbortedError, nothing sent', async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const client = createClient({ endpoint: stack.endpoint, fetch: counting });
    const error = await rejection(client.users.upsert({ customer_id: 'aborted-user' }, { signal: AbortSignal.abort() }));
    expect(isAbortedError(error)).toBe(true);
    expect(calls).toBe(0);
  });
});

describe('options', () => {
  it.each([
    [{}, 'endpoint'],
    [{ endpoint: '' }, 'endpoint'],
    [{ endpoint: '/engage', fetch: 'nope' }, 'fetch'],
  ])('createClient(%j) throws a ValidationError naming %s', (options, field) => {
    let error: unknown;
    try {
      createClient(options as never);
    } catch (e) {
      error = e;
    }
    expect(isValidationError(error) && error.field).toBe(field);
  });

  it('bodies JSON cannot carry are refused before sending, naming the field', async () => {
    const client = createClient({ endpoint: stack.endpoint });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const cases: Array<[Promise<unknown>, string]> = [
      [client.users.upsert({ customer_id: 'u-big', attributes: { n: 10n as never } }), 'attributes.n'],
      [client.users.upsert({ customer_id: 'u-nan', attributes: { n: Number.NaN } }), 'attributes.n'],
      [
        client.users.upsert({ customer_id: 'u-cyc', attributes: cyclic as never }),
        'attributes.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self.self',
      ],
      [client.users.upsert(JSON.parse('{"customer_id":"u-proto","attributes":{"__proto__":{"x":1}}}')), 'attributes.__proto__'],
      [client.users.upsert(null as never), 'user'],
    ];
    for (const [promise, field] of cases) {
      const error = await rejection(promise);
      expect(isValidationError(error) && error.field).toBe(field);
    }
  });
});
