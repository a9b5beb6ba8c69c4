import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Answer, BodyResult, Exchange, Pipeline } from '../pipeline/exchange';

/**
 * The Node edge: the pipeline on Node's own request and response, with no Web `Request`,
 * `Response` or stream in between (they cost more than the whole pipeline on Node).
 */
export function nodeListener(pipeline: Pipeline): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    pipeline(exchangeOf(req)).then(
      (answer) => write(req, res, answer),
      // The pipeline answers every failure itself; this is the last guard, and it says nothing internal.
      () => write(req, res, { status: 500, headers: { 'content-type': 'application/json' }, body: '{"title":"ServerError","description":"Unexpected error"}' }),
    );
  };
}

// Work handed over by the pipeline must never reject unobserved (the proxy's never does).
const settle = (work: Promise<unknown>): void => void work.catch(() => {});

function exchangeOf(req: IncomingMessage): Exchange {
  // Express strips its mount path from req.url and keeps the full one in originalUrl.
  const given = (req as { originalUrl?: unknown }).originalUrl;
  const target = typeof given === 'string' ? given : (req.url ?? '/');
  const query = target.indexOf('?');
  const raw = query < 0 ? target : target.slice(0, query);
  // A plain path is taken as it is; anything a URL parser would rewrite (dot segments, escapes,
  // backslashes) goes through one, as on the Web edge.
  const path = /^\/[\w/-]*$/.test(raw) ? raw : new URL(raw, 'http://h').pathname;
  const origin = () => new URL(`${'encrypted' in req.socket ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`).origin;
  const header = (name: string) => {
    const value = req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  };
  return {
    method: req.method ?? 'GET',
    path,
    query: query < 0 ? '' : target.slice(query + 1),
    origin,
    header,
    readBody: (maxBytes) => readBody(req, maxBytes),
    request: () => {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      return new Request(new URL(target, origin()), { method: req.method, headers });
    },
    clientAddress: req.socket.remoteAddress,
    waitUntil: settle,
  };
}

/** The body as text, or what a body parser mounted before us already read (Express). */
function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const parsed = (req as { body?: unknown }).body;
  if (req.readableEnded && parsed !== undefined) {
    // Re-serialized: the byte count may differ from the original, the JSON does not.
    const text = typeof parsed === 'string' ? parsed : parsed instanceof Uint8Array ? Buffer.from(parsed).toString('utf8') : JSON.stringify(parsed);
    return Promise.resolve(Buffer.byteLength(text) > maxBytes ? { tooLarge: true } : { text });
  }
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.resolve({ tooLarge: true });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      // Stop keeping it; Node discards the rest once the answer is written.
      req.off('data', onData);
      resolve({ tooLarge: true });
    };
    req.on('data', onData);
    req.once('end', () => {
      const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)).toString('utf8');
      // As a Web body's text() does: a byte-order mark is not part of the JSON.
      resolve({ text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text });
    });
    // Ended by serve's deadline: the socket was destroyed with Node's request-timeout error.
    const failed = () =>
      resolve((req.socket as { errored?: { code?: string } } | null)?.errored?.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? { timedOut: true } : { failed: true });
    req.once('error', failed);
    req.once('aborted', failed);
  });
}

function write(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string | number> = answer.headers;
  if (answer.body !== null) headers['content-length'] = Buffer.byteLength(answer.body);
  res.writeHead(answer.status, headers);
  res.end(req.method === 'HEAD' ? undefined : (answer.body ?? undefined));
  // A refusal written before the body was read leaves it in the socket: drain it, or the
  // client's next request on this keep-alive connection waits behind it.
  if (!req.complete) req.resume();
}
