// ENGAGE_PROBE_PORT's thread: /healthz answered while the proxy's own event loop is held, 503 once
// it has been held past the bound, and everything else answered by the proxy's thread.
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startProbeThread } from '../../src/proxy/node/probe-thread';
import type { RunningServer } from '../../src/proxy/node/serve';

/**
 * Holds this thread's event loop (a synchronous child process) while the child asks `url` after
 * `afterMs`: what a probe sees while the proxy's loop is busy. The child's status, body and ms.
 */
function probeWhileHeld(url: string, afterMs: number): { status: number; body: string; ms: number } {
  const script = `setTimeout(async () => { const t = performance.now(); const r = await fetch(${JSON.stringify(url)}); console.log(JSON.stringify({ status: r.status, body: await r.text(), ms: performance.now() - t })); }, ${afterMs});`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { status: number; body: string; ms: number };
}

describe('the probe thread', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
  });
  const asked: string[] = [];
  const handler = (request: Request) => {
    asked.push(`${request.method} ${new URL(request.url).pathname}`);
    return Promise.resolve(Response.json({ status: 'ready' }, { status: 200, headers: { 'x-from': 'main' } }));
  };

  it('answers /healthz while the main loop is held, within the bound, and 503 past it', async () => {
    // The loop is held from the probing process's start, which took over 1.2 s in one CI run (the
    // Node suite's workers and a Redis cluster beside it): the bound leaves room for it.
    server = await startProbeThread(handler, { port: 0, host: '127.0.0.1', stuckMs: 3_000 });
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok' });
    // Held 300 ms: still alive, answered by the thread (the main loop could not have answered).
    const busy = probeWhileHeld(`${server.url}/healthz`, 300);
    expect([busy.status, JSON.parse(busy.body)]).toEqual([200, { status: 'ok' }]);
    // Held 4 s: stuck, past the bound.
    const stuck = probeWhileHeld(`${server.url}/healthz`, 4_000);
    expect(stuck.status).toBe(503);
    expect(JSON.parse(stuck.body)).toEqual({ status: 'stuck', message: expect.stringMatching(/^the event loop has not turned for \d+ s$/) });
    // Turning again: alive again.
    await new Promise((r) => setTimeout(r, 150));
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(asked).toEqual([]);
  }, 20_000);

  it('relays every other request to the main thread, with its status, headers and body', async () => {
    server = await startProbeThread(handler, { port: 0, host: '127.0.0.1' });
    const ready = await fetch(`${server.url}/readyz?verbose`);
    expect([ready.status, ready.headers.get('x-from'), await ready.json()]).toEqual([200, 'main', { status: 'ready' }]);
    expect((await fetch(`${server.url}/healthz`, { method: 'POST' })).headers.get('x-from')).toBe('main');
    expect(asked).toEqual(['GET /readyz', 'POST /healthz']);
  });

  it('rejects naming the port when it is taken', async () => {
    server = await startProbeThread(handler, { port: 0, host: '127.0.0.1' });
    await expect(startProbeThread(handler, { port: server.port, host: '127.0.0.1' })).rejects.toThrow(`probe port ${server.port}: listen EADDRINUSE`);
  });
});
