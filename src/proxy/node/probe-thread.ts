// ENGAGE_PROBE_PORT's server in a thread of its own. When thousands of connections reach the
// proxy at once (a brownout's re-sends), its event loop is held for a few hundred ms while it
// accepts and answers them; a liveness probe answered on that loop waits with them, and one that
// times out gets a healthy process restarted in the middle of the burst. Here `/healthz` is
// answered by the thread from the main loop's heartbeat: 200 while the loop turns, 503 once it
// has not turned for STUCK_MS (stuck, not busy). Everything else (`/readyz`, `/metrics`) is the
// main thread's own answer, relayed: it needs the main thread's store and registry.
import { Worker } from 'node:worker_threads';
import type { Handler, RunningServer } from './serve';

/** A main loop that has not turned for this long is stuck, not busy. */
const STUCK_MS = 10_000;
/** How often the main loop says it turns. */
const BEAT_MS = 100;

interface ThreadData {
  beat: BigInt64Array;
  port: number;
  host: string;
  stuckMs: number;
}

type FromThread = { listening: number } | { failed: string } | { id: number; method: string; path: string };

/**
 * Serves `handler` on `port` from a worker thread, except `GET /healthz`, which the thread
 * answers itself from this thread's heartbeat (503 once it has not beaten for `stuckMs`).
 * Resolves once it listens; rejects when it cannot (the port taken). A thread that fails later
 * is told to `onError`, and the port is gone (liveness then fails, as it should).
 */
export function startProbeThread(handler: Handler, options: { port: number; host: string; stuckMs?: number; onError?: (error: Error) => void }): Promise<RunningServer> {
  const beat = new BigInt64Array(new SharedArrayBuffer(8));
  const tick = () => Atomics.store(beat, 0, BigInt(Date.now()));
  tick();
  const heartbeat = setInterval(tick, BEAT_MS);
  heartbeat.unref();
  const data: ThreadData = { beat, port: options.port, host: options.host, stuckMs: options.stuckMs ?? STUCK_MS };
  // A few small requests at a time: a small heap (~10 MB of RSS in all, measured).
  const thread = new Worker(`(${probeServer.toString()})()`, {
    eval: true,
    workerData: data,
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
  });
  const close = async () => {
    clearInterval(heartbeat);
    await thread.terminate();
  };
  return new Promise((resolve, reject) => {
    let listening = false;
    thread.on('error', (error) => (listening ? (options.onError ?? console.error)(error) : reject(error)));
    thread.on('message', (message: FromThread) => {
      if ('listening' in message) {
        listening = true;
        const host = options.host.includes(':') ? `[${options.host}]` : options.host;
        resolve({ port: message.listening, url: `http://${host}:${message.listening}`, close });
      } else if ('failed' in message) {
        void close();
        reject(new Error(message.failed));
      } else {
        const { id, method, path } = message;
        void handler(new Request(`http://localhost${path}`, { method }))
          .then(async (response) => ({ status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() }))
          .catch(() => ({ status: 500, headers: { 'content-type': 'application/json' }, body: '{"status":"error"}' }))
          .then((answer) => thread.postMessage({ id, ...answer }));
      }
    });
  });
}

/**
 * The thread's program, run from its source text (so it must use nothing from outside its own
 * body): an HTTP server answering `GET /healthz` from the heartbeat and relaying every other
 * request to the main thread.
 */
function probeServer(): void {
  /* eslint-disable @typescript-eslint/no-require-imports -- evaluated as a CommonJS script in the thread */
  const threads = require('node:worker_threads') as typeof import('node:worker_threads');
  const { createServer } = require('node:http') as typeof import('node:http');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const parentPort = threads.parentPort!;
  const { beat, port, host, stuckMs } = threads.workerData as ThreadData;
  const waiting = new Map<number, import('node:http').ServerResponse>();
  let next = 0;
  parentPort.on('message', ({ id, status, headers, body }: { id: number; status: number; headers: Record<string, string>; body: string }) => {
    const response = waiting.get(id);
    waiting.delete(id);
    response?.writeHead(status, headers).end(body);
  });
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path.split('?')[0] === '/healthz' && (request.method === 'GET' || request.method === 'HEAD')) {
      const still = Date.now() - Number(Atomics.load(beat, 0));
      const body = still <= stuckMs ? '{"status":"ok"}' : JSON.stringify({ status: 'stuck', message: `the event loop has not turned for ${Math.round(still / 1000)} s` });
      response.writeHead(still <= stuckMs ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body);
      return;
    }
    const id = next++;
    waiting.set(id, response);
    response.once('close', () => waiting.delete(id));
    parentPort.postMessage({ id, method: request.method, path });
  });
  server.once('error', (error) => parentPort.postMessage({ failed: `probe port ${port}: ${error.message}` }));
  server.listen(port, host, () => parentPort.postMessage({ listening: (server.address() as { port: number }).port }));
}
