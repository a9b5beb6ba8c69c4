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
      query: url.search.slice(1),
      origin: () => hostOrigin(url, request.headers.get('host')),
      header: (name) => request.headers.get(name),
      readBody: (maxBytes) => readBody(request, maxBytes),
      request: () => request,
      clientAddress: info?.clientAddress,
      waitUntil: info?.waitUntil,
    });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };
}

/**
 * The origin the browser addressed: the `Host` it sent, with the URL's scheme. A framework may
 * build `request.url` from its own configuration (Next.js: `localhost` whatever the Host), and a
 * page on `127.0.0.1` was then refused as cross-origin. A browser cannot choose its Host.
 */
function hostOrigin(url: URL, host: string | null): string {
  try {
    return host ? new URL(`${url.protocol}//${host}`).origin : url.origin;
  } catch {
    return url.origin;
  }
}
