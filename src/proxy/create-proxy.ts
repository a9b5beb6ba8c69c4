import { configure } from './config';
import { PIPELINE, type PipelineSource } from './pipeline/exchange';
import { createPipeline } from './pipeline/pipeline';
import type { ProxyHandler, ProxyOptions } from './types';
import { fetchUpstream } from './web/fetch-upstream';
import { webHandler } from './web/handler';

/**
 * Creates the proxy: a Web-standard `(request, info?) => Promise<Response>` handler that is the
 * only holder of the upstream keys. It runs unchanged on Deno, Bun and edge runtimes; on Node,
 * `serve` and `createNodeMiddleware` run the same pipeline on Node's own request and response
 * over a keep-alive connection pool, without Web `Request`/`Response` objects. Configuration
 * mistakes throw here, at start-up, naming the option.
 *
 * @example
 * const proxy = createProxy({
 *   workspaceId: 'ENGAGEDEMO01',
 *   keys: { personalize: process.env.ENGAGE_PERSONALIZE_KEY },
 *   sdkUrl: 'https://sdk-01.example.com',
 *   basePath: '/engage',
 *   allowedOrigins: ['https://www.example.com'],
 * });
 * await serve(proxy, { port: 8787 });
 */
export function createProxy(options: ProxyOptions): ProxyHandler {
  const config = configure(options);
  const fetchSend = fetchUpstream(config.fetch);
  const handler = webHandler(createPipeline(config, fetchSend));
  // A `fetch` of the integrator's own (a test double, a tracing wrapper) is used on Node too.
  const source: PipelineSource = (sender) => createPipeline(config, options.fetch ? fetchSend : sender(config.upstreamConcurrency));
  return Object.assign(handler, { [PIPELINE]: source });
}
