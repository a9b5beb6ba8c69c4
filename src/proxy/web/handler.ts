import type { Pipeline } from '../pipeline/exchange';
import type { ProxyHandler } from '../types';
import { readBody } from './read-body';

/** The Web edge: `Request` in, the pipeline, `Response` out (workerd, Deno, Bun, bundlers). */
export function webHandler(pipeline: Pipeline): ProxyHandler {
  return async (request, info) => {
    const url = new URL(request.url);
    const answer = await pipeline({
      method: request.method,
      path: url.pathname,
      origin: () => url.origin,
      header: (name) => request.headers.get(name),
      readBody: (maxBytes) => readBody(request, maxBytes),
      request: () => request,
      clientAddress: info?.clientAddress,
      waitUntil: info?.waitUntil,
    });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };
}
