import { Agent, request } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/proxy/node/serve';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** POSTs `bytes` bytes through `agent`; resolves with the status and the socket it went on. */
function post(url: string, agent: Agent, bytes: number): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': bytes } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, socket: req.socket! }));
    });
    req.on('error', reject);
    req.end('x'.repeat(bytes));
  });
}

describe('serve (Node adapter)', () => {
  // A handler that refuses before reading the body (an unknown path, a foreign origin, a 413)
  // must not wedge the keep-alive connection: the browser sends its next request on it, and
  // Chromium waited ~6 s for the server to reset it before retrying elsewhere.
  it('a body the handler never read does not block the next request on the same connection', async () => {
    server = await serve(async (req) => (new URL(req.url).pathname === '/refuse' ? new Response('no', { status: 404 }) : new Response(await req.text())));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await post(`${server.url}/refuse`, agent, 1_000_000);
      const second = await post(`${server.url}/echo`, agent, 10);
      expect(first.status).toBe(404);
      expect(second.status).toBe(200);
      expect(second.socket).toBe(first.socket);
    } finally {
      agent.destroy();
    }
  }, 3_000);
});
