import type { Config } from '../config';
import type { Exchange } from './exchange';

/**
 * The CORS headers for this request's `Origin`: none when same-origin (or no `Origin`),
 * undefined when the origin is not allowed (the request is then refused before anything else).
 */
export function corsHeaders(config: Config, exchange: Exchange): Record<string, string> | undefined {
  const origin = exchange.header('origin');
  if (origin === null || origin === exchange.origin() || origin === publicOrigin(config, exchange)) return {};
  if (!config.allowedOrigins.has(origin)) return undefined;
  const headers: Record<string, string> = {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': 'Retry-After, X-Engage-Crawler, X-Engage-Deduplicated, X-Engage-Device-Clock',
    vary: 'Origin',
  };
  if (config.allowCredentials) headers['access-control-allow-credentials'] = 'true';
  return headers;
}

/**
 * The origin the browser used, when a trusted proxy in front terminated TLS or rewrote the host
 * (`X-Forwarded-Proto`/`-Host`, first value); undefined otherwise. Only believed from
 * `trustedProxies`, so a client cannot claim to be same-origin.
 */
function publicOrigin(config: Config, exchange: Exchange): string | undefined {
  const peer = exchange.clientAddress;
  if (!peer || !config.trusted(peer.toLowerCase().replace(/^::ffff:(?=\d+\.)/, ''))) return undefined;
  const proto = exchange.header('x-forwarded-proto')?.split(',')[0]!.trim().toLowerCase();
  const host = exchange.header('x-forwarded-host')?.split(',')[0]!.trim().toLowerCase() ?? new URL(exchange.origin()).host;
  if ((proto !== 'https' && proto !== 'http') || !/^[a-z0-9.:[\]-]+$/.test(host)) return undefined;
  try {
    return new URL(`${proto}://${host}`).origin; // drops a default port, as Origin does
  } catch {
    return undefined;
  }
}

/**
 * The log message of a refused origin: the origin the request named, the proxy's own as it saw it
 * (they differ behind a proxy that rewrites Host, e.g. Vite's `changeOrigin: true`), and the
 * setting that would allow it. An origin is no secret; it is cut short and stripped of anything
 * but printable ASCII, so a forged header cannot forge log lines.
 *
 * @example
 * refusedOrigin(exchange); // "origin http://localhost:5173 is not allowed (this proxy is http://127.0.0.1:8787): add it to ENGAGE_ALLOWED_ORIGINS (allowedOrigins)"
 */
export function refusedOrigin(exchange: Exchange): string {
  const clean = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
  const origin = clean(exchange.header('origin') ?? '');
  return `origin ${origin} is not allowed (this proxy is ${clean(exchange.origin())}): add it to ENGAGE_ALLOWED_ORIGINS (allowedOrigins)`;
}
