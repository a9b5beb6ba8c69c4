// The contract between the pipeline and its edges: what an edge (Web `Request`/`Response`, or Node's `req`/`res`) hands the
// pipeline, and what it gets back. The stages see nothing else of the runtime, so they exist once.

import type { ProxyConnectionInfo } from '../types';

/** The body's text, or why there is none: over the limit, unreadable, or not arrived by the edge's deadline. */
export type BodyResult = { text: string } | { tooLarge: true } | { failed: true } | { timedOut: true };

/** One request as the pipeline reads it. */
export interface Exchange extends ProxyConnectionInfo {
  method: string;
  /** The path without the query; dot segments and percent-escapes already resolved. */
  path: string;
  /** The query string without `?` (empty when none): where a tracker states its send time (device-clock.ts). */
  query: string;
  /** `scheme://host[:port]` the request was addressed to (a same-origin `Origin` equals it). */
  origin(): string;
  /** A request header by lowercase name, or null. */
  header(name: string): string | null;
  /** The body as text, given up as soon as it passes `maxBytes`. */
  readBody(maxBytes: number): Promise<BodyResult>;
  /** The request as a Web `Request` (headers, no body), for the integrator's hooks only. */
  request(): Request;
}

/** What the pipeline answers; each edge writes it in its own runtime's terms. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** One upstream attempt's outcome. */
export type Attempt = { kind: 'response'; status: number; retryAfter: string | null; contentType: string | null; text: string } | { kind: 'network' | 'timeout' };

/**
 * Sends one request upstream within `timeoutMs`, never throwing: global `fetch` on the Web edge,
 * a keep-alive undici `Pool` on Node.
 */
export type Send = (origin: string, path: string, init: { method: string; headers: Record<string, string>; body: string }, timeoutMs: number) => Promise<Attempt>;

/** The stages, ready to run: one per proxy and sender. */
export type Pipeline = (exchange: Exchange) => Promise<Answer>;

/**
 * Where a proxy handler carries its pipeline for the Node edge, which builds it over its own
 * sender (`Symbol.for`: two copies of the package still recognise each other's handlers).
 */
export const PIPELINE: unique symbol = Symbol.for('engage-sdk.proxy.pipeline') as never;

/**
 * Makes the Node edge's sender for a proxy, given how many connections one upstream origin may
 * have at once (the proxy's `upstreamConcurrency`).
 */
export type SenderFactory = (connections: number) => Send;

/** A handler's pipeline, to be built over the Node edge's sender. */
export type PipelineSource = (sender: SenderFactory) => Pipeline;
