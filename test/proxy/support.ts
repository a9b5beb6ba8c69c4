// Shared wiring for the proxy tests: a real upstream (the emulator) on 127.0.0.1, and a proxy
// pointed at it. What the upstream received is read back through its admin routes.
import { serve, type RunningServer } from '../../src/serve-node';
import { createProxy } from '../../src/proxy/create-proxy';
import type { ProxyOptions, ProxyHandler } from '../../src/proxy/types';

export const WORKSPACE = 'ENGAGEDEMO01';
export const KEYS = { data: 'emulator-data-key', personalize: 'emulator-personalize-key', campaign: 'emulator-campaign-key' };

export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface Upstream {
  url: string;
  received(): Promise<Received[]>;
  /** Answer the next `count` requests with `status` (or reset the connection). */
  fault(fault: { statuses: Array<number | 'reset'>; count: number; retryAfterSeconds?: number; latencyMs?: number }): Promise<void>;
  close(): Promise<void>;
}

/** A recording stand-in used until the emulator lands. */
export async function startUpstream(): Promise<Upstream> {
  const log: Received[] = [];
  let faults: { statuses: Array<number | 'reset'>; count: number; retryAfterSeconds?: number; latencyMs?: number } | undefined;
  let server: RunningServer | undefined;
  server = await serve(async (request) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => (headers[k] = v));
    log.push({ method: request.method, path: url.pathname, headers, body: await request.text() });
    if (faults && faults.count > 0) {
      faults.count--;
      const status = faults.statuses[0]!;
      if (faults.latencyMs) await new Promise((r) => setTimeout(r, faults!.latencyMs));
      if (status === 'reset') return Response.error();
      return Response.json({ title: 'fault', description: 'injected' }, {
        status,
        headers: faults.retryAfterSeconds !== undefined ? { 'retry-after': String(faults.retryAfterSeconds) } : {},
      });
    }
    if (url.pathname.startsWith('/core-services/')) return new Response(null, { status: 204 });
    return Response.json({ status: 'success', message: 'accepted' });
  });
  return {
    url: server.url,
    received: async () => log.slice(),
    fault: async (f) => {
      faults = { ...f };
    },
    close: () => server!.close(),
  };
}

export interface Harness {
  upstream: Upstream;
  proxy: ProxyHandler;
  /** Calls the proxy handler directly with a Web Request (as an edge runtime would). */
  call(path: string, init?: RequestInit & { json?: unknown; clientAddress?: string }): Promise<Response>;
  close(): Promise<void>;
}

export const PROXY_ORIGIN = 'https://shop.example';

export async function harness(options: Partial<ProxyOptions> = {}): Promise<Harness> {
  const upstream = await startUpstream();
  const proxy = createProxy({
    workspaceId: WORKSPACE,
    keys: KEYS,
    baseUrl: upstream.url,
    sdkUrl: upstream.url,
    fileImportsUrl: upstream.url,
    basePath: '/engage',
    retryBaseDelayMs: 1,
    ...options,
  });
  return {
    upstream,
    proxy,
    call(path, init = {}) {
      const { json, clientAddress, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      const request = new Request(`${PROXY_ORIGIN}/engage${path}`, {
        method: rest.method ?? (json !== undefined ? 'POST' : 'GET'),
        ...rest,
        headers,
        body: json !== undefined ? JSON.stringify(json) : rest.body,
      });
      return proxy(request, { clientAddress: clientAddress ?? '203.0.113.7' });
    },
    close: () => upstream.close(),
  };
}

let counter = 0;
/** A valid experience-events body with `n` actions for one customer, fresh UUIDs. */
export function experienceBody(n = 1, customerId = 'user-42'): { elements: Array<{ customer_id: string; user_timezone_offset: number; actions: Array<Record<string, unknown>> }> } {
  return {
    elements: [
      {
        customer_id: customerId,
        user_timezone_offset: 19800,
        actions: Array.from({ length: n }, () => ({
          action: 'SVC_PERSONALIZATION_MESSAGE_SHOWN',
          svc_event_uuid: crypto.randomUUID(),
          event_time: Math.floor(Date.now() / 1000) - 5,
          platform: 'web',
          attributes: {
            cid: `cid-${++counter}`,
            experience: 'Homepage hero',
            svc_locale_id: '0',
            svc_variation_id: '2',
            audience_name: 'All users',
            audience_id: '5A',
            type: 'Web Personalization',
          },
        })),
      },
    ],
  };
}

export const basic = (key: string) => `Basic ${Buffer.from(`${WORKSPACE}:${key}`).toString('base64')}`;
