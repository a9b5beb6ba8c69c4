import { errorResponse, MALFORMED_JSON, MALFORMED_JSON_MESSAGE, requestId, type ErrorInput } from '../upstream/error-bodies';
import { EVENTS_PER_MINUTE } from '../upstream/events';
import { FILE_IMPORT_REQUESTS_PER_MINUTE, parseFileImportQuery } from '../upstream/file-import-status';
import { isSafeCampaignId, matchUpstreamPath, OPERATIONS, type Operation, type RouteMatch } from '../upstream/operations';
import { checkJsonShape, isObject } from '../upstream/problem';
import { validate } from '../upstream/validate';
import { handleAdmin } from './admin';
import { authenticate, KEY_TILES, type Keys } from './auth';
import { applyCampaignUpdate, campaignSummary, checkCampaignEdit } from './campaigns';
import { Faults } from './faults';
import { createLiveImport, liveRecord, parseLiveImportSpec, queryImports, seedImports, type ImportRecord } from './file-imports';
import { Journal, type JournalEntry } from './journal';
import { seededRandom, hex } from './random';
import { SlidingWindow } from './rate-limit';
import { seedCampaigns } from './seed-campaigns';
import { Store } from './store';
import type { Emulator, EmulatorLimits, EmulatorOptions, RequestLogEntry } from './types';

/** The upstream's documented limits, which the emulator enforces unless told otherwise. */
export const DEFAULT_LIMITS: Readonly<EmulatorLimits> = {
  eventsPerMinute: EVENTS_PER_MINUTE,
  fileImportRequestsPerMinute: FILE_IMPORT_REQUESTS_PER_MINUTE,
  userUpdatesPerMinute: 10_000,
  campaignUpdatesPerSecond: 10,
  campaignUpdatesPerMinute: 100,
  campaignUpdatesPerHour: 6000,
};

type WriteOperation = Extract<JournalEntry, { kind: 'write' }>['operation'];

const ACCEPTED = 'Your request has been accepted and will be processed soon.';

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A faithful local stand-in for the upstream API: all five operations on one origin, with the
 * upstream's rules and error bodies, key rotation, rate limits, fault injection and an admin API
 * under `/_emulator/`. Works with no options at all.
 *
 * @example
 * const emulator = createEmulator();
 * const server = await serve(emulator.handler, { port: 0 });
 * // baseUrl = sdkUrl = fileImportsUrl = server.url; Basic auth 'ENGAGEDEMO01' : emulator.keys.personalize
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const workspaceId = options.workspaceId ?? 'ENGAGEDEMO01';
  const keys: Keys = {
    data: options.keys?.data ?? 'emulator-data-key',
    personalize: options.keys?.personalize ?? 'emulator-personalize-key',
    campaign: options.keys?.campaign ?? 'emulator-campaign-key',
  };
  const clock = options.now ?? Date.now;
  const seed = options.seed ?? 1;
  const identifiers = options.identityResolution?.identifiers;
  const limits = options.limits === false ? undefined : { ...DEFAULT_LIMITS, ...options.limits };
  const skew = options.futureSkewSeconds ?? 60;
  const logSize = options.requestLogSize ?? 10_000;
  const faults = new Faults(clock, seed);
  if (options.faults) faults.set(options.faults);

  // Events are limited by the number of events (checked after validation); the others by requests.
  const eventWindow = limits && new SlidingWindow(limits.eventsPerMinute, 60_000);
  const requestWindows: Partial<Record<Operation, SlidingWindow[]>> = limits
    ? {
        fileImportStatus: [new SlidingWindow(limits.fileImportRequestsPerMinute, 60_000)],
        users: [new SlidingWindow(limits.userUpdatesPerMinute, 60_000)],
        campaignUpdate: [
          new SlidingWindow(limits.campaignUpdatesPerSecond, 1000),
          new SlidingWindow(limits.campaignUpdatesPerMinute, 60_000),
          new SlidingWindow(limits.campaignUpdatesPerHour, 3_600_000),
        ],
      }
    : {};

  let store = freshStore();
  let log: RequestLogEntry[] = [];
  let importCounter = 0;
  const importIds = seededRandom(seed ^ 0x1d5);

  function freshStore(): Store {
    const s = new Store();
    s.campaigns = new Map(seedCampaigns().map((c) => [c.id, c]));
    s.imports = seedImports(seed, clock());
    return s;
  }

  // Replays the journal before serving anything, then keeps appending to it.
  const journal = options.dataFile ? new Journal(options.dataFile) : undefined;
  if (journal) {
    for (const entry of journal.read()) replay(entry);
  }

  function replay(entry: JournalEntry): void {
    if (entry.kind === 'rotate') keys[entry.tile] = entry.key;
    else if (entry.kind === 'fileImport') addLiveImport(parseLiveImportSpec(entry.spec), entry.at, entry.id);
    else if (entry.kind === 'write') applyWrite(entry.operation, entry.body as Record<string, unknown>, entry.at, entry.campaignId);
  }

  function applyWrite(operation: WriteOperation, body: Record<string, unknown>, at: number, campaignId?: string): void {
    if (operation === 'experienceEvents') store.applyExperience(body, at);
    else if (operation === 'users') store.applyUser(body, at, identifiers);
    else if (operation === 'events') store.applyEvents(body, at);
    else {
      const campaign = store.campaigns.get(campaignId!);
      if (campaign) applyCampaignUpdate(campaign, body, new Date(at).toISOString());
    }
  }

  function addLiveImport(spec: ReturnType<typeof parseLiveImportSpec>, at: number, id: string): ImportRecord {
    const live = createLiveImport(spec, at, id);
    store.live.push(live);
    importCounter++;
    return liveRecord(live, clock());
  }

  function allImports(now: number): ImportRecord[] {
    return [...store.live.map((live) => liveRecord(live, now)), ...store.imports];
  }

  async function handler(request: Request): Promise<Response> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return json({ title: 'Bad Request', description: 'Unreadable request URL' }, 400);
    }
    if (url.pathname === '/_emulator' || url.pathname.startsWith('/_emulator/')) {
      try {
        return await handleAdmin(emulator, request, url);
      } catch {
        return json({ error: 'Unexpected error in the admin API' }, 500);
      }
    }
    const match = matchUpstreamPath(url.pathname);
    const operation = match?.operation ?? guessOperation(url.pathname);
    let response: Response;
    let faulted = false;
    try {
      if (!match) {
        response = notFound(operation);
      } else {
        const decision = faults.decide(match.operation);
        if (decision.latencyMs > 0) await sleep(decision.latencyMs);
        faulted = decision.outcome !== undefined;
        if (decision.outcome === 'reset') {
          response = Response.error();
        } else if (typeof decision.outcome === 'number') {
          const status = decision.outcome;
          // Injected faults answer exactly as the upstream would for that status.
          response = errorResponse(match.operation, { status }, { retryAfterSeconds: decision.retryAfterSeconds });
        } else {
          response = await upstream(request, match);
          if (decision.outcome === 'reset-after') response = Response.error();
        }
      }
    } catch {
      // Last guard: whatever went wrong, answer in the operation's shape and keep serving.
      response = errorResponse(operation ?? 'experienceEvents', { status: 500 });
    }
    // An answer given before the body was read (401, 413, 415, ...) must still consume it, or
    // the next request on this keep-alive connection meets the unread bytes and fails.
    if (!request.bodyUsed && response.type !== 'error') await discardBody(request);
    log.push({
      time: new Date(clock()).toISOString(),
      method: request.method,
      path: url.pathname,
      status: response.type === 'error' ? 'reset' : response.status,
      operation: match?.operation ?? null,
      fault: faulted,
    });
    if (log.length > logSize) log = log.slice(-logSize);
    return response;
  }

  async function upstream(request: Request, match: RouteMatch): Promise<Response> {
    const operation = match.operation;
    const spec = OPERATIONS[operation];
    if (request.method !== spec.method) {
      return errorResponse(operation, { status: 405 }, { headers: { allow: spec.method } });
    }
    const denied = authenticate(operation, request.headers, workspaceId, keys, match.workspaceId);
    if (denied) return errorResponse(operation, denied);

    const now = clock();
    const limited = takeRequestLimit(operation, now);
    if (limited) return limited;

    const mediaType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (mediaType !== 'application/json') {
      return errorResponse(operation, { status: 415 });
    }
    const bytes = await readBody(request, spec.maxBodyBytes);
    if (bytes === undefined) {
      return errorResponse(operation, { status: 413 });
    }
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      return errorResponse(operation, malformed(operation));
    }

    if (operation === 'campaignUpdate') return campaignUpdate(body, match.campaignId ?? '', now);
    if (operation === 'fileImportStatus') {
      // Parsed here rather than through validate(): the emulator needs the normalised query.
      const shape = checkJsonShape(body);
      if (shape) return errorResponse(operation, { ...shape, type: 'Invalid Request' });
      const parsed = parseFileImportQuery(body);
      if (parsed.problem) return errorResponse(operation, parsed.problem);
      return json(queryImports(allImports(now), parsed.query));
    }
    const problem = validate(operation, body, { now, futureSkewSeconds: skew, identityResolution: options.identityResolution });
    if (problem) return errorResponse(operation, problem);
    const record = body as Record<string, unknown>;
    if (operation === 'events' && eventWindow) {
      const taken = eventWindow.take(now, (record.actions as unknown[]).length);
      if (!taken.ok) {
        return errorResponse(operation, { status: 429 }, { retryAfterSeconds: taken.retryAfterSeconds });
      }
    }
    journal?.append({ kind: 'write', operation, at: now, body });
    applyWrite(operation, record, now);
    if (operation === 'experienceEvents') return json({ status: 'success', message: ACCEPTED, req_id: requestId() });
    return json({ status: 'success', message: ACCEPTED });
  }

  function campaignUpdate(body: unknown, campaignId: string, now: number): Response {
    const campaign = isSafeCampaignId(campaignId) ? store.campaigns.get(campaignId) : undefined;
    const problem = validate('campaignUpdate', body, campaign ? { channel: campaign.channel } : {});
    // Campaign error bodies echo the caller's request_id when it sent one.
    const bodyRequestId = isObject(body) && typeof body.request_id === 'string' ? body.request_id : undefined;
    if (problem) return errorResponse('campaignUpdate', problem, { requestId: bodyRequestId });
    if (!campaign) {
      return errorResponse('campaignUpdate', { status: 404, field: 'campaign_id', message: 'No campaign exists with this campaign_id' }, { requestId: bodyRequestId });
    }
    const record = body as Record<string, unknown>;
    const refused = checkCampaignEdit(campaign, record);
    if (refused) return errorResponse('campaignUpdate', refused, { requestId: bodyRequestId });
    journal?.append({ kind: 'write', operation: 'campaignUpdate', at: now, body, campaignId });
    applyWrite('campaignUpdate', record, now, campaignId);
    return new Response(null, { status: 204 });
  }

  function takeRequestLimit(operation: Operation, now: number): Response | undefined {
    for (const window of requestWindows[operation] ?? []) {
      const taken = window.take(now);
      if (!taken.ok) {
        return errorResponse(operation, { status: 429 }, { retryAfterSeconds: taken.retryAfterSeconds });
      }
    }
    return undefined;
  }

  const emulator: Emulator = {
    handler: async (request) => {
      try {
        return await handler(request);
      } catch {
        return json({ title: 'Internal Server Error', description: 'Unexpected error' }, 500);
      }
    },
    workspaceId,
    get keys() {
      return { ...keys };
    },
    rotateKey(tile) {
      if (!KEY_TILES.includes(tile)) throw new Error(`tile must be one of ${KEY_TILES.join(', ')}`);
      const bytes = new Uint8Array(16);
      crypto.getRandomValues(bytes);
      const key = `${tile}-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
      journal?.append({ kind: 'rotate', tile, key });
      keys[tile] = key;
      return key;
    },
    setFaults: (spec) => faults.set(spec),
    clearFaults: () => faults.clear(),
    getFaults: () => faults.current() ?? null,
    reset() {
      store = freshStore();
      log = [];
      faults.clear();
      eventWindow?.clear();
      for (const window of Object.values(requestWindows).flat()) window.clear();
      journal?.truncate(KEY_TILES.map((tile) => ({ kind: 'rotate', tile, key: keys[tile] })));
    },
    getExperienceEvents: () => ({ unique: store.experience.size, duplicates: store.duplicates, events: [...store.experience.values()] }),
    getUsers: () => ({ count: store.users.size, skipped_updates: store.skippedUserUpdates, users: [...store.users.values()] }),
    getEvents: () => ({ count: store.events.length, events: [...store.events] }),
    getCampaigns: () => ({ campaigns: [...store.campaigns.values()].map(campaignSummary) }),
    getCampaign: (id) => store.campaigns.get(id),
    getRequests: () => ({ requests: [...log] }),
    createFileImport(input) {
      const spec = parseLiveImportSpec(input);
      const at = clock();
      const id = `${hex(importIds, 16)}${String(importCounter).padStart(8, '0')}`;
      journal?.append({ kind: 'fileImport', at, id, spec });
      return addLiveImport(spec, at, id);
    },
    close: () => journal?.close(),
  };
  return emulator;
}

/** Unknown paths still get the error shape of the API family their prefix belongs to. */
function guessOperation(pathname: string): Operation | undefined {
  if (pathname.startsWith('/v1.0/data/fileimports')) return 'fileImportStatus';
  if (pathname.startsWith('/core-services/')) return 'campaignUpdate';
  if (pathname.startsWith('/v1/customer')) return 'users';
  if (pathname.startsWith('/v1/event')) return 'events';
  if (pathname.startsWith('/v1/experiences')) return 'experienceEvents';
  return undefined;
}

function notFound(operation: Operation | undefined): Response {
  if (operation) return errorResponse(operation, { status: 404 });
  return json({ title: 'Not Found', description: 'Resource not found' }, 404);
}

// Our sentence where the upstream shows none for an undecodable body.
const UNDECODABLE = 'Could not decode the request body: not valid UTF-8 JSON';

function malformed(operation: Operation): ErrorInput {
  switch (operation) {
    case 'experienceEvents':
      return { status: 400, type: MALFORMED_JSON, message: UNDECODABLE };
    case 'users':
    case 'events':
      return { status: 400, type: MALFORMED_JSON, message: MALFORMED_JSON_MESSAGE };
    case 'fileImportStatus':
      return { status: 400, type: 'Invalid Request', message: UNDECODABLE };
    case 'campaignUpdate':
      // The upstream's own 500 example shows a Python JSON decoder message; a 400 is what it should be.
      return { status: 400, field: 'body', message: 'Expecting value: the request body is not valid UTF-8 JSON' };
  }
}

/** Bytes read and thrown away after an early answer before giving up on the connection. */
const MAX_DISCARD = 16 * 1024 * 1024;

/** Reads a stream to its end and drops it, giving up (cancel) past MAX_DISCARD bytes. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    total += value.byteLength;
    if (total > MAX_DISCARD) return void (await reader.cancel());
  }
}

async function discardBody(request: Request): Promise<void> {
  if (!request.body) return;
  try {
    await drain(request.body.getReader());
  } catch {
    // The client went away; nothing to keep.
  }
}

/** Reads at most `max` bytes; undefined when the body is larger (the rest is then discarded by the caller). */
async function readBody(request: Request, max: number): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) return undefined;
  if (!request.body) return new Uint8Array(0);
  // With a declared length within the limit, the platform's own reader is the fast path.
  if (request.headers.has('content-length') && Number.isFinite(declared)) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.byteLength > max ? undefined : bytes;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await drain(reader).catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

