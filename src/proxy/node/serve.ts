import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { PIPELINE, type PipelineSource } from '../pipeline/exchange';
import { nodeListener } from './edge';
import { poolUpstream } from './pool-upstream';

/** What the connection tells a handler that a Web `Request` cannot carry. */
export interface ConnectionInfo {
  /** The TCP peer's address (the last hop, not a forwarded header). */
  clientAddress?: string;
  /** Work that may finish after the response: a Node process lives on, so nothing to hold. */
  waitUntil?: (work: Promise<unknown>) => void;
}

/** A Web-standard handler, as returned by `createProxy` and `createEmulator().handler`. */
export type Handler = (request: Request, info?: ConnectionInfo) => Promise<Response>;

export interface ServeOptions {
  /** @default 0 (an ephemeral port; read it back from `RunningServer.port`) */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /**
   * A request's headers and body must all have arrived within this many ms; past it the request
   * is answered 408 (when nothing was written yet) and its connection closed, so a client that
   * trickles bytes holds a socket for seconds, not Node's default 5 minutes. Checked every
   * `min(1 s, requestTimeoutMs / 10)`, so a request ends at most that much after its deadline.
   * @default 10000 (a browser's ≤ 64 KB body at 50 kbit/s)
   */
  requestTimeoutMs?: number;
  /** Called for each request ended by `requestTimeoutMs` (e.g. to count it). */
  onRequestTimeout?: () => void;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves a handler on Node's `http` module. A proxy from `createProxy` (with or without
 * `withProbes`) runs on Node's own request and response over a keep-alive undici pool; any other
 * Web-standard handler (the emulator's) through `Request`/`Response`, where one that answers
 * `Response.error()` gets the connection destroyed (a reset, as a network failure looks).
 *
 * @example
 * const server = await serve(createProxy(options), { port: 8787 });
 * console.log(server.url);
 */
export async function serve(handler: Handler, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const requestTimeout = options.requestTimeoutMs ?? 10_000;
  if (!Number.isInteger(requestTimeout) || requestTimeout <= 0) {
    throw new RangeError(`serve: requestTimeoutMs must be a positive whole number of milliseconds (got ${requestTimeout})`);
  }
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: requestTimeout,
      // Node checks the deadlines on this interval (30 s by default, far past a short deadline).
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(requestTimeout / 10))),
    },
    createNodeMiddleware(handler),
  );
  server.keepAliveTimeout = 5_000;
  // Node's own answer to a client error, plus the count of the requests ended by the deadline.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') options.onRequestTimeout?.();
    const response = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !response?.headersSent) {
      const status = CLIENT_ERROR_STATUS[error.code ?? ''] ?? '400 Bad Request';
      socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    }
    socket.destroy(error);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : Number(options.port);
  return {
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// As Node answers them when no 'clientError' listener is set.
const CLIENT_ERROR_STATUS: Record<string, string> = {
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
};

/** A Node `(req, res)` listener, as Express, Connect, Fastify (`reply.raw`) and `http.createServer` take. */
export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/**
 * Turns a handler into a Node `(req, res)` middleware (the proxy's on its Node fast path, as
 * `serve` does), for mounting the proxy in an existing Express, Connect or Fastify server. Mount it at the
 * proxy's `basePath` (it reads `req.originalUrl`, so Express's mount prefix is kept) and before any
 * body parser; a body an Express parser already read is used as it was parsed. In Fastify, call it
 * with `(request.raw, reply.raw)` after `reply.hijack()`, in a scope without content-type parsers.
 *
 * @example
 * const app = express();
 * app.use('/engage', createNodeMiddleware(createProxy({ ...options, basePath: '/engage' })));
 */
export function createNodeMiddleware(handler: Handler): NodeMiddleware {
  const source = (handler as { [PIPELINE]?: PipelineSource })[PIPELINE];
  if (source) return nodeListener(source(poolUpstream));
  return (req, res) => {
    void respond(handler, req, res);
  };
}

// Work handed over by a handler must never reject unobserved (the proxy's never does).
const settle = (work: Promise<unknown>): void => void work.catch(() => {});

async function respond(handler: Handler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const aborter = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) aborter.abort();
  });
  // A handler that answers without reading the body (a refusal) leaves it in the socket, and the
  // client's next request on this keep-alive connection waits behind it until the connection is
  // reset (~6 s in Chromium). Node discards an unread body itself, but not once Readable.toWeb
  // holds the stream: discard it the same way.
  res.once('finish', () => {
    if (!req.complete) req.removeAllListeners('data').resume();
  });
  let response: Response;
  try {
    response = await handler(toRequest(req, aborter.signal), { clientAddress: req.socket.remoteAddress, waitUntil: settle });
  } catch {
    // Handlers are written never to throw; this is the last guard, and it says nothing internal.
    response = Response.json({ title: 'ServerError', description: 'Unexpected error' }, { status: 500 });
  }
  if (response.type === 'error') {
    req.socket.destroy();
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body || req.method === 'HEAD') {
    res.end();
    return;
  }
  Readable.fromWeb(response.body as unknown as NodeReadableStream)
    .on('error', () => res.destroy())
    .pipe(res);
}

/** The request body as a stream, or what a body parser mounted before us already read. */
function bodyOf(req: IncomingMessage): ReadableStream | string | Uint8Array {
  const parsed = (req as { body?: unknown }).body;
  if (req.readableEnded && parsed !== undefined) {
    if (typeof parsed === 'string' || parsed instanceof Uint8Array) return parsed;
    // Re-serialized: the byte count may differ from the original, the JSON does not.
    return JSON.stringify(parsed);
  }
  return Readable.toWeb(req) as unknown as ReadableStream;
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  // Express strips its mount path from req.url and keeps the full one in originalUrl.
  const path = (req as { originalUrl?: unknown }).originalUrl;
  const url = new URL(typeof path === 'string' ? path : (req.url ?? '/'), `http://${req.headers.host ?? 'localhost'}`);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(url, {
    method: req.method,
    headers,
    signal,
    body: hasBody ? bodyOf(req) : undefined,
    // Required by undici for a streamed request body.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
}
