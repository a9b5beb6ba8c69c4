import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createEmulator, serve, type Emulator, type EmulatorOptions, type RunningServer } from '../../src/emulator/index.ts';

export const WORKSPACE = 'ENGAGEDEMO01';
export const KEYS = { data: 'emulator-data-key', personalize: 'emulator-personalize-key', campaign: 'emulator-campaign-key' };

export interface Harness {
  emulator: Emulator;
  server: RunningServer;
  url: string;
  close(): Promise<void>;
}

/** A real emulator on 127.0.0.1, ephemeral port. */
export async function start(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = createEmulator(options);
  const server = await serve(emulator.handler, { port: 0 });
  return {
    emulator,
    server,
    url: server.url,
    close: async () => {
      await server.close();
      emulator.close();
    },
  };
}

/**
 * The file's emulator: started before its tests, closed after them and, unless `reset` is false,
 * reset before each test. The harness is filled in by `beforeAll`, so read it inside tests only.
 */
export function useEmulator(options: EmulatorOptions = {}, { reset = true }: { reset?: boolean } = {}): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    Object.assign(h, await start(options));
  });
  afterAll(() => h.close());
  if (reset) beforeEach(() => h.emulator.reset());
  return h;
}

export const basic = (key: string, user = WORKSPACE) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;

type Op = 'experienceEvents' | 'users' | 'events' | 'campaignUpdate' | 'fileImportStatus';

/** Path, method and correct headers of an operation. */
export function route(op: Op, campaignId = 'camp_abc123xyz'): { path: string; method: string; headers: Record<string, string> } {
  const json = { 'content-type': 'application/json' };
  switch (op) {
    case 'experienceEvents':
      return { path: '/v1/experiences/events', method: 'POST', headers: { ...json, authorization: basic(KEYS.personalize), 'svc-appkey': WORKSPACE } };
    case 'users':
      return { path: `/v1/customer/${WORKSPACE}`, method: 'POST', headers: { ...json, authorization: basic(KEYS.data) } };
    case 'events':
      return { path: `/v1/event/${WORKSPACE}`, method: 'POST', headers: { ...json, authorization: basic(KEYS.data) } };
    case 'campaignUpdate':
      return { path: `/core-services/v1/campaigns/${campaignId}`, method: 'PATCH', headers: { ...json, authorization: basic(KEYS.campaign), 'svc-appkey': WORKSPACE } };
    case 'fileImportStatus':
      return { path: '/v1.0/data/fileimports/import/status', method: 'POST', headers: { ...json, authorization: basic(KEYS.data), 'svc-appkey': WORKSPACE } };
  }
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** Calls an operation with a JSON body (or raw string) and parses the answer. */
export async function call(
  h: { url: string },
  op: Op,
  body: unknown,
  init: { headers?: Record<string, string | undefined>; campaignId?: string; method?: string; raw?: boolean } = {},
): Promise<Answer> {
  const r = route(op, init.campaignId);
  const headers: Record<string, string> = { ...r.headers };
  for (const [name, value] of Object.entries(init.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  const res = await fetch(h.url + r.path, {
    method: init.method ?? r.method,
    headers,
    body: init.raw ? (body as string) : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // keep the text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export async function admin(h: { url: string }, path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer> {
  const res = await fetch(`${h.url}/_emulator/${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** `attributes` of the upstream's published impression example. */
export const XP_ATTRIBUTES = {
  cid: '66d55ae445921e4d35ae4368_F_T_WP_AB_2_P_0_AU_5A',
  experience: 'Test Server side experience',
  svc_locale_id: '0',
  svc_variation_id: '2',
  audience_name: 'All Users',
  audience_id: '5A',
  type: 'Web Personalization',
};

/** A valid experience action; override any field. */
export function xpAction(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    action: 'SVC_PERSONALIZATION_MESSAGE_SHOWN',
    svc_event_uuid: crypto.randomUUID(),
    event_time: Math.floor(Date.now() / 1000) - 5,
    platform: 'web',
    attributes: { ...XP_ATTRIBUTES },
    ...overrides,
  };
}

export const xpBody = (actions: Array<Record<string, unknown>> = [xpAction()], element: Record<string, unknown> = {}) => ({
  elements: [{ customer_id: 'john@example.com', user_timezone_offset: 19800, actions, ...element }],
});

export const anyId = expect.any(String);

/** The 200 answer of users and events. */
export const dataOk = { status: 200, body: { status: 'success', message: 'Your request has been accepted and will be processed soon.' } };
/** An error answer of users and events (the data API's `{ status: 'fail', error }` envelope). */
export const dataFail = (status: number, type: string, message: string, attribute?: string) => ({
  status,
  body: { status: 'fail', error: { ...(attribute ? { attribute } : {}), message, type, request_id: anyId } },
});
