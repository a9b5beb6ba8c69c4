// Shared wiring for the proxy tests: a real upstream (the emulator) on 127.0.0.1, and a proxy
// pointed at it. What the upstream received is read back through its admin routes.
import { createEmulator, type Emulator } from '../../src/emulator/index';
import { serve } from '../../src/proxy/node/serve';
import { createProxy } from '../../src/proxy/create-proxy';
import type { ProxyOptions, ProxyHandler } from '../../src/proxy/types';
import { PERSON_USER_AGENT } from '../../demo/chromium.mjs';

export const WORKSPACE = 'ENGAGEDEMO01';
export const KEYS = { data: 'emulator-data-key', personalize: 'emulator-personalize-key', campaign: 'emulator-campaign-key' };

/** A request as the proxy put it on the wire to the upstream (recorded by a `fetch` wrapper). */
export interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** One line of the emulator's own request log (`GET /_emulator/requests`). */
export interface Received {
  method: string;
  path: string;
  status: number | 'reset';
  operation: string | null;
}

export interface Upstream {
  url: string;
  emulator: Emulator;
  /** What the upstream received, from its admin route. */
  received(): Promise<Received[]>;
  /** Experience events the upstream stored, from its admin route. */
  experienceEvents(): Promise<{ unique: number; duplicates: number; events: Array<{ svc_event_uuid: string; customer_id: string }> }>;
  /** Injects faults through the admin route (`POST /_emulator/faults`). */
  fault(spec: { statuses?: Array<number | 'reset' | 'reset-after'>; count?: number; retryAfterSeconds?: number; latencyMs?: number; ratio?: number }): Promise<void>;
  close(): Promise<void>;
}

/** The real emulator on 127.0.0.1, port 0. */
export async function startUpstream(emulatorOptions: Parameters<typeof createEmulator>[0] = {}): Promise<Upstream> {
  const emulator = createEmulator(emulatorOptions);
  const server = await serve(emulator.handler, { port: 0 });
  const admin = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${server.url}/_emulator/${path}`, init);
    if (!res.ok) throw new Error(`emulator admin ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return {
    url: server.url,
    emulator,
    received: async () => (await admin('requests')).requests,
    experienceEvents: () => admin('experience-events'),
    fault: async (spec) => {
      await admin('faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
    },
    close: async () => {
      await server.close();
      emulator.close();
    },
  };
}

export interface Harness {
  upstream: Upstream;
  /** Requests as the proxy sent them upstream (headers and bodies). */
  sent: Sent[];
  proxy: ProxyHandler;
  /** Calls the proxy handler directly with a Web Request (as an edge runtime would). */
  call(path: string, init?: RequestInit & { json?: unknown; clientAddress?: string }): Promise<Response>;
  close(): Promise<void>;
}

export const PROXY_ORIGIN = 'https://shop.example';

/** The headers of a tracker's JSON request: a person's browser (a request without a user agent is a script's). */
export const PAGE_HEADERS = { 'content-type': 'application/json', 'user-agent': PERSON_USER_AGENT } as const;

export async function harness(options: Partial<ProxyOptions> = {}, emulatorOptions: Parameters<typeof createEmulator>[0] = {}): Promise<Harness> {
  const upstream = await startUpstream(emulatorOptions);
  const sent: Sent[] = [];
  const proxy = createProxy({
    fetch: async (input, init) => {
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
      sent.push({
        method: init?.method ?? 'GET',
        path: new URL(input instanceof Request ? input.url : input.toString()).pathname,
        headers,
        body: (init?.body as string | undefined) ?? '',
      });
      return fetch(input, init);
    },
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
    sent,
    proxy,
    call(path, init = {}) {
      const { json, clientAddress, ...rest } = init;
      const headers = new Headers(rest.headers);
      // A browser's request, as every tracker's is (a request without a user agent is a script's).
      if (!headers.has('user-agent')) headers.set('user-agent', PERSON_USER_AGENT);
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
export function experienceBody(
  n = 1,
  customerId = 'user-42',
): { elements: Array<{ customer_id: string; user_timezone_offset: number; actions: Array<Record<string, unknown>> }> } {
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

/**
 * Waits, when fewer than `needMs` of the clock's current `windowMs` are left, for the next one to
 * begin: the proxy's budgets are fixed windows of the clock (rate-limit.ts), and calls that cross a
 * window's end meet two budgets.
 */
export async function startInFreshWindow(windowMs: number, needMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
