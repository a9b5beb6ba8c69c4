// @vitest-environment happy-dom
// Pure tracker logic with a stubbed fetch and fake-indexeddb. The real proof of storage,
// lifecycle and delivery is the Chromium suite in test/e2e/tracker.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngageError } from '../../src/errors';
import { createTracker } from '../../src/tracker/create-tracker';
import type { Tracker, TrackerOptions } from '../../src/tracker/types';
import { context, started } from './fixtures';

interface Sent {
  uuids: string[];
  body: { elements: Array<{ customer_id: string; user_timezone_offset: number; actions: Array<{ svc_event_uuid: string; event_time: number }> }> };
  keepalive: boolean;
}

let sent: Sent[];
let answer: (sent: Sent) => Response | Promise<Response>;
let errors: EngageError[];
let trackers: Tracker[];

const fetchStub = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
  const body = JSON.parse(init!.body as string);
  const entry: Sent = {
    body,
    keepalive: Boolean(init!.keepalive),
    uuids: body.elements.flatMap((e: Sent['body']['elements'][0]) => e.actions.map((a) => a.svc_event_uuid)),
  };
  sent.push(entry);
  return answer(entry);
});

function make(options: Partial<TrackerOptions> = {}): Tracker {
  const tracker = createTracker({
    endpoint: 'https://shop.test/engage/',
    customerId: 'u-1',
    fetch: fetchStub,
    onError: (error) => errors.push(error),
    flushInterval: 60_000,
    ...options,
  });
  trackers.push(tracker);
  return tracker;
}

const delivered = () => sent.flatMap((s) => s.uuids);
/** The bodies of the beacons sent from now on (navigator.sendBeacon, removed after each test). */
function beaconsSent(): string[] {
  const beacons: string[] = [];
  Object.defineProperty(navigator, 'sendBeacon', { value: (_: string, body: string) => beacons.push(body) > 0, configurable: true });
  return beacons;
}
const beaconUuids = (body: string): string[] => JSON.parse(body).elements[0].actions.map((event: { svc_event_uuid: string }) => event.svc_event_uuid);
/** The upstream's acknowledgement, which the proxy passes on: the only 2xx that is delivery. */
const ACK = { status: 'success', message: 'Events processed', req_id: 'r-1' };

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  localStorage.clear();
  sent = [];
  errors = [];
  trackers = [];
  answer = () => Response.json(ACK);
  fetchStub.mockClear();
});
afterEach(async () => {
  for (const tracker of trackers) tracker.destroy();
  // A destroy() before the delivery code arrived is done again once it has: not in the next test.
  await started();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  delete (navigator as { sendBeacon?: unknown }).sendBeacon;
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
});

describe('createTracker', () => {
  it('delivers recorded events to {endpoint}/v1/experiences/events as upstream JSON', async () => {
    const tracker = make();
    const a = tracker.shown(context)!;
    const b = tracker.clicked(context, { b_id: 'Buy' })!;
    await tracker.flush();
    // With the time it was sent, by the clock that dated the events (the proxy dates them by its own).
    const [, sentAt] = /^https:\/\/shop\.test\/engage\/v1\/experiences\/events\?sent_at=(\d+)$/.exec(fetchStub.mock.calls[0]![0] as string)!;
    expect(Math.abs(Number(sentAt) - Date.now())).toBeLessThan(60_000);
    expect(fetchStub.mock.calls[0]![1]).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(delivered()).toEqual([a, b]);
    const actions = sent[0]!.body.elements[0]!.actions as unknown as Array<Record<string, unknown>>;
    expect(actions[1]).toMatchObject({ action: 'SVC_PERSONALIZATION_MESSAGE_CLICKED', platform: 'web', attributes: { ...context, b_id: 'Buy' } });
    // Delivered events left the queue: a second flush sends nothing.
    await tracker.flush();
    expect(sent.length).toBe(1);
  });

  it('refuses bad input without throwing, warns once, and leaves the queue as it was', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const tracker = make();
    const good = tracker.shown(context)!;
    expect(() => tracker.shown({ ...context, cid: '' })).not.toThrow();
    expect(tracker.shown({ ...context, cid: '' })).toBeUndefined();
    expect(tracker.clicked(context, { svc_x: 1 })).toBeUndefined();
    expect(tracker.shown(undefined as never)).toBeUndefined();
    expect(errors.map((e) => e.message)).toEqual([
      'context.cid: must be a non-empty string',
      'context.cid: must be a non-empty string',
      'attributes.svc_x: must not start with svc_ (reserved for the system)',
      'context: must be an object',
    ]);
    expect(warn).toHaveBeenCalledTimes(3);
    await tracker.flush();
    expect(delivered()).toEqual([good]);
  });

  it('takes null and undefined for every optional argument as "not given", and delivers', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const tracker = make();
    const ids = [tracker.shown(context, null), tracker.shown(context, undefined), tracker.clicked(context, null), tracker.clicked(context, undefined)];
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    tracker.identify(null);
    tracker.identify(undefined);
    await tracker.flush();
    expect(delivered()).toEqual(ids);
    // identify(null) kept the customer; nothing was refused.
    expect(sent[0]!.body.elements.map((e) => e.customer_id)).toEqual(['u-1']);
    expect(errors).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    const actions = sent[0]!.body.elements[0]!.actions as unknown as Array<{ attributes: Record<string, unknown> }>;
    expect(actions.map((a) => a.attributes)).toEqual([context, context, context, context]);
  });

  it('takes null and undefined options as the defaults (onError: undefined, batchSize: null, …)', async () => {
    const tracker = createTracker({
      endpoint: 'https://shop.test/engage',
      customerId: 'u-2',
      fetch: fetchStub,
      onError: undefined,
      batchSize: null,
      flushInterval: null,
      maxQueueSize: null,
      maxEventAge: null,
      maxRequestBytes: null,
      namespace: null,
      storageTimeout: null,
      headers: null,
      credentials: null,
    });
    trackers.push(tracker);
    const id = tracker.shown(context, null)!;
    await tracker.flush();
    expect(delivered()).toEqual([id]);
    // null credentials are left to fetch's own default ('same-origin'), never passed on as null.
    expect(fetchStub.mock.calls[0]![1]).toMatchObject({ credentials: undefined, headers: { 'content-type': 'application/json' } });
    const second = createTracker({ endpoint: 'https://shop.test/engage', customerId: null, fetch: fetchStub, onError: null });
    trackers.push(second);
    expect(typeof second.shown(context)).toBe('string');
    await expect(second.flush()).rejects.toMatchObject({ field: 'customerId' }); // waits for identify(), as if not given
  });

  it('still refuses a string or other non-object for attributes, and records nothing for it', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const tracker = make();
    expect(tracker.shown(context, 'b_id' as never)).toBeUndefined();
    expect(tracker.clicked(context, 42 as never)).toBeUndefined();
    expect(tracker.clicked(context, ['x'] as never)).toBeUndefined();
    tracker.identify(7 as never);
    expect(errors.map((e) => e.message)).toEqual([
      'attributes: must be an object',
      'attributes: must be an object',
      'attributes: must be an object',
      'customerId: must be a non-empty string',
    ]);
    const id = tracker.shown(context)!;
    await tracker.flush();
    expect(delivered()).toEqual([id]);
  });

  it('survives a throwing onError', async () => {
    const tracker = createTracker({
      endpoint: '/e',
      fetch: fetchStub,
      onError: () => {
        throw new Error('host bug');
      },
    });
    trackers.push(tracker);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(() => tracker.shown({} as never)).not.toThrow();
  });

  it('keeps events on 5xx and network errors, resending the same UUIDs', async () => {
    const tracker = make();
    const ids = [tracker.shown(context)!, tracker.shown(context)!];
    answer = () => new Response('{}', { status: 503, headers: { 'retry-after': '1' } });
    await expect(tracker.flush()).rejects.toMatchObject({ name: 'HttpError', status: 503, retryAfterMs: 1_000 });
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(tracker.flush()).rejects.toMatchObject({ name: 'NetworkError' });
    answer = () => Response.json(ACK);
    await tracker.flush();
    expect(sent.map((s) => s.uuids)).toEqual([ids, ids, ids]);
    // One report for the streak of failures, not one per attempt.
    expect(errors.map((e) => e.name)).toEqual(['HttpError']);
  });

  it("keeps events answered by a 2xx that is not the proxy's (an HTML page, an empty 200), says once what answered, and delivers them later", async () => {
    const tracker = make();
    const ids = [tracker.shown(context)!, tracker.shown(context)!, tracker.shown(context)!];
    answer = () => new Response('<!doctype html><title>You are offline</title>', { headers: { 'content-type': 'text/html; charset=utf-8' } });
    await expect(tracker.flush()).rejects.toMatchObject({
      name: 'HttpError',
      status: 200,
      message: "text/html; charset=utf-8 from https://shop.test/engage/v1/experiences/events: not the proxy's answer",
    });
    answer = () => new Response(null, { status: 200 });
    await expect(tracker.flush()).rejects.toMatchObject({ message: "no content type from https://shop.test/engage/v1/experiences/events: not the proxy's answer" });
    answer = () => Response.json(ACK);
    await tracker.flush();
    expect(sent.map((s) => s.uuids)).toEqual([ids, ids, ids]);
    expect(errors.map((e) => e.message)).toEqual(["text/html; charset=utf-8 from https://shop.test/engage/v1/experiences/events: not the proxy's answer"]);
    await tracker.flush();
    expect(sent).toHaveLength(3);
  });

  it('states a fresh send time on every attempt, a retry too', async () => {
    const tracker = make();
    tracker.shown(context);
    const sentAt = () => fetchStub.mock.calls.map(([url]) => Number(new URL(url as string).searchParams.get('sent_at')));
    const start = Date.now();
    const clock = vi.spyOn(Date, 'now');
    clock.mockReturnValue(start + 1_000);
    answer = () => new Response('{}', { status: 503 });
    await expect(tracker.flush()).rejects.toMatchObject({ status: 503 });
    clock.mockReturnValue(start + 42_000);
    answer = () => Response.json(ACK);
    await tracker.flush();
    expect(sentAt()).toEqual([start + 1_000, start + 42_000]);
  });

  it('isolates a refused event by halving the batch, dropping and reporting only it', async () => {
    const tracker = make();
    const ids = Array.from({ length: 8 }, () => tracker.shown(context)!);
    const bad = ids[5]!;
    answer = (s) => (s.uuids.includes(bad) ? Response.json({ title: 'Invalid Field Value' }, { status: 400 }) : Response.json(ACK));
    await tracker.flush();
    const accepted = sent.filter((s) => !s.uuids.includes(bad)).flatMap((s) => s.uuids);
    expect(accepted.sort()).toEqual(ids.filter((id) => id !== bad).sort());
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ name: 'DroppedEventsError', count: 1, reason: 'rejected', cause: { status: 400 } });
    await tracker.flush();
    expect(sent.length).toBe(7); // 8 → 4+4 → 2+2 → 1+1: nothing left to resend
  });

  it('holds every event on 401 (a rotated key) and reports it', async () => {
    const tracker = make();
    const id = tracker.shown(context)!;
    answer = () => Response.json({ title: 'Authentication required' }, { status: 401 });
    await expect(tracker.flush()).rejects.toMatchObject({ status: 401 });
    await expect(tracker.flush()).rejects.toMatchObject({ status: 401 });
    expect(errors.map((e) => (e as { status?: number }).status)).toEqual([401, 401]);
    answer = () => Response.json(ACK);
    await tracker.flush();
    expect(delivered()).toEqual([id, id, id]);
  });

  it('keeps events recorded before identify() until a customer is known', async () => {
    const tracker = make({ customerId: undefined });
    const id = tracker.shown(context)!;
    await expect(tracker.flush()).rejects.toMatchObject({ field: 'customerId' });
    expect(sent).toEqual([]);
    tracker.identify('late-user');
    await tracker.flush();
    expect(sent[0]!.body.elements[0]!.customer_id).toBe('late-user');
    expect(delivered()).toEqual([id]);
  });

  it('bounds the queue: the oldest beyond maxQueueSize are dropped and counted', async () => {
    const tracker = make({ maxQueueSize: 5 });
    const ids = Array.from({ length: 8 }, () => tracker.shown(context)!);
    await tracker.flush();
    expect(delivered()).toEqual(ids.slice(3));
    expect(errors).toMatchObject([{ name: 'DroppedEventsError', count: 3, reason: 'overflow' }]);
  });

  it('drops events older than maxEventAge', async () => {
    const tracker = make({ maxEventAge: 1_000 });
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now - 5_000);
    tracker.shown(context);
    vi.spyOn(Date, 'now').mockReturnValue(now);
    const fresh = tracker.shown(context)!;
    await tracker.flush();
    expect(delivered()).toEqual([fresh]);
    expect(errors).toMatchObject([{ name: 'DroppedEventsError', count: 1, reason: 'expired' }]);
  });

  it('writes many events recorded in one task in one IndexedDB transaction', async () => {
    const tracker = make({ batchSize: 10_000, namespace: 'one-transaction' });
    await tracker.flush(); // opens the database
    const put = vi.spyOn(IDBObjectStore.prototype, 'put');
    for (let i = 0; i < 1_000; i++) tracker.shown(context);
    // New segments (first put of each key; a delivery may later rewrite one) of 250 events each,
    // all in one transaction. Waited for, not timed: a loaded machine writes later, not otherwise.
    const firstPuts = new Map<string, IDBTransaction>();
    await vi.waitFor(() => {
      put.mock.calls.forEach(([, key], i) => {
        const id = JSON.stringify(key);
        if (id.startsWith('["one-transaction"') && !firstPuts.has(id)) firstPuts.set(id, (put.mock.contexts[i] as IDBObjectStore).transaction);
      });
      expect(firstPuts.size).toBe(4);
    });
    expect(new Set(firstPuts.values()).size).toBe(1);
    await tracker.flush();
    expect(new Set(delivered()).size).toBe(1_000);
  });

  it('survives a reload: events left by one tracker are delivered by the next', async () => {
    answer = () => Promise.reject(new TypeError('offline'));
    const first = make();
    const ids = [first.shown(context)!, first.shown(context)!];
    await expect(first.flush()).rejects.toBeTruthy();
    first.destroy();
    answer = () => Response.json(ACK);
    const second = make();
    await second.flush();
    expect(sent.at(-1)!.uuids).toEqual(ids);
  });

  it('carries on from memory when IndexedDB is missing, and reports it', async () => {
    // @ts-expect-error simulating a browser without IndexedDB
    delete globalThis.indexedDB;
    const tracker = make();
    const id = tracker.shown(context)!;
    await tracker.flush();
    expect(delivered()).toEqual([id]);
    expect(errors).toMatchObject([{ name: 'StorageError', code: 'ERR_STORAGE' }]);
  });

  it('carries on from memory when IndexedDB hangs on open (Safari)', async () => {
    vi.spyOn(globalThis.indexedDB, 'open').mockImplementation(() => ({}) as IDBOpenDBRequest);
    const tracker = make({ storageTimeout: 50 });
    const id = tracker.shown(context)!;
    await tracker.flush();
    expect(delivered()).toEqual([id]);
    expect(errors).toMatchObject([{ name: 'StorageError', cause: { message: 'open timed out after 50 ms' } }]);
  });

  it('opts out (clearing the queue, remembered by the next page) and back in', async () => {
    answer = () => Promise.reject(new TypeError('offline'));
    const tracker = make();
    tracker.shown(context);
    tracker.optOut();
    expect(tracker.shown(context)).toBeUndefined();
    tracker.destroy();
    answer = () => Response.json(ACK);
    const next = make();
    // The remembered denial is read by the start, a task after the tracker's (issue 51): what the
    // first task records is held, and dropped by it.
    await started();
    expect(next.shown(context)).toBeUndefined();
    next.optIn();
    const id = next.shown(context)!;
    await next.flush();
    expect(delivered()).toEqual([id]);
  });

  it('a grant right after a remembered denial keeps what it records: the denial clears the queue first, however slow finding the database is', async () => {
    const tracker = make();
    tracker.optOut();
    tracker.destroy();
    await started();
    // The denial's clear asks whether the database exists; an answer later than the grant's
    // write (a busy browser) removed the event recorded after the grant.
    const databases = indexedDB.databases.bind(indexedDB);
    vi.spyOn(indexedDB, 'databases').mockImplementation(() => new Promise((resolve) => setTimeout(() => resolve(databases()), 100)));
    const next = make();
    await started();
    next.optIn();
    const id = next.shown(context)!;
    await new Promise((resolve) => setTimeout(resolve, 300));
    await next.flush();
    expect(delivered()).toEqual([id]);
  });

  it('flushes on its own once batchSize events are recorded', async () => {
    const tracker = make({ batchSize: 3, flushInterval: 3_600_000 });
    const ids = [tracker.shown(context), tracker.shown(context), tracker.shown(context)];
    await vi.waitFor(() => expect(delivered()).toEqual(ids));
  });

  it('flushes on its own after flushInterval', async () => {
    const tracker = make({ batchSize: 100, flushInterval: 200 });
    const id = tracker.shown(context);
    await vi.waitFor(() => expect(delivered()).toEqual([id]));
  });

  it('delivers events recorded while a delivery was in flight, with no further call', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    answer = async () => (await gate, Response.json(ACK));
    const tracker = make({ batchSize: 2, flushInterval: 200 });
    const first = [tracker.shown(context), tracker.shown(context)];
    await vi.waitFor(() => expect(sent.length).toBe(1));
    const late = tracker.shown(context);
    release();
    await vi.waitFor(() => expect(delivered()).toEqual([...first, late]));
  });

  // Issue 51: the start (queue, delivery and its listeners) runs in later tasks. A page hidden or
  // closed before then starts it in that event, and sends as delivery's own listeners would have
  // (added during the event's dispatch, they are not called for it).
  it.each(['pagehide', 'visibilitychange'])('a %s before the deferred start sends what was recorded, in that event', (type) => {
    const tracker = make();
    const id = tracker.shown(context)!;
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    (type === 'pagehide' ? window : document).dispatchEvent(new Event(type));
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    expect(sent).toMatchObject([{ uuids: [id], keepalive: true }]);
  });

  it('flush() and destroy() before the deferred start: flush delivers, destroy leaves the events to the next page', async () => {
    const first = make();
    const flushed = first.shown(context)!;
    await first.flush();
    expect(delivered()).toEqual([flushed]);
    const second = make();
    const kept = second.shown(context)!;
    second.destroy();
    // The next page, once this one's destroy() has queued what it held (with the delivery code).
    await started();
    await make().flush();
    expect(delivered()).toEqual([flushed, kept]);
  });

  // Before the delivery code (its own chunk) has arrived, what a page going away holds leaves
  // without it: beacons, or keepalive fetches when the requests need headers or a fetch of their own.
  it('a page closed before the delivery code arrived sends what it held with the headers it was given, and what was recorded before a destroy()', () => {
    const tracker = make({ headers: { 'x-csrf': 't-1' } });
    const id = tracker.shown(context)!;
    tracker.destroy();
    window.dispatchEvent(new Event('pagehide'));
    expect(sent).toMatchObject([{ uuids: [id], keepalive: true }]);
    expect(fetchStub.mock.calls[0]?.[1]?.headers).toEqual({ 'content-type': 'application/json', 'x-csrf': 't-1' });
  });

  it('a denial made before the delivery code arrived is remembered by the next page, and a grant lifts it as soon', async () => {
    make().optOut();
    const next = make();
    await started();
    expect(next.shown(context)).toBeUndefined();
    next.destroy();
    make().optIn();
    const third = make();
    await started();
    expect(third.shown(context)).toBeTypeOf('string');
  });

  it('loses nothing recorded in its first task beyond what it holds before the start: 2,500 events, 2,500 delivered once', async () => {
    const tracker = make({ batchSize: 1_000 });
    const uuids = Array.from({ length: 2_500 }, () => tracker.shown(context)!);
    await tracker.flush();
    expect(new Set(delivered())).toEqual(new Set(uuids));
    expect(delivered()).toHaveLength(2_500);
    expect(errors).toEqual([]);
  });

  it('sends undelivered events with keepalive when the page is hidden', async () => {
    const tracker = make();
    await started();
    const id = tracker.shown(context)!;
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('pagehide'));
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    expect(sent).toMatchObject([{ uuids: [id], keepalive: true }]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(delivered()).toEqual([id]); // once: pagehide after visibilitychange adds nothing
  });

  it('on pagehide, beacons what this tab has not seen delivered, stored or not (Firefox cancels keepalive fetches of a closing tab)', async () => {
    // A custom fetch (or headers) cannot go as a beacon; the default transport can.
    vi.stubGlobal('fetch', fetchStub);
    const tracker = make({ fetch: undefined });
    await tracker.flush(); // delivery works: not in backoff
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the start-up delivery, which would take `stored`
    const stored = tracker.shown(context)!;
    await new Promise((resolve) => setTimeout(resolve, 50)); // written to IndexedDB by now
    const fresh = tracker.shown(context)!;
    const beacons = beaconsSent();
    window.dispatchEvent(new Event('pagehide'));
    window.dispatchEvent(new Event('pageshow'));
    expect(beacons.map(beaconUuids)).toEqual([[stored, fresh]]);
    tracker.destroy();
  });

  it('a pagehide while still visible (Firefox closing a tab) beacons, and the visibilitychange after it beacons the same events again', async () => {
    vi.stubGlobal('fetch', fetchStub);
    const tracker = make({ fetch: undefined });
    await tracker.flush();
    const ids = [tracker.shown(context)!, tracker.shown(context)!];
    const beacons = beaconsSent();
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons).toHaveLength(1);
    expect(sent).toEqual([]);
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(beacons.map(beaconUuids)).toEqual([ids, ids]);
    expect(sent).toEqual([]);
    tracker.destroy();
  });

  it('a page shown again after its pagehide (the back/forward cache) still sends with keepalive on its next hide: its beacons took none of the keepalive budget', async () => {
    vi.stubGlobal('fetch', fetchStub);
    const tracker = make({ fetch: undefined, batchSize: 10_000 });
    await tracker.flush();
    for (let i = 0; i < 400; i++) tracker.shown(context);
    const beacons = beaconsSent();
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons.join('').length).toBeGreaterThan(60_000); // more than the whole budget
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    window.dispatchEvent(new Event('pageshow'));
    const id = tracker.shown(context)!;
    sent.length = 0;
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(sent).toMatchObject([{ uuids: [id], keepalive: true }]);
    tracker.destroy();
  });

  it('destroy() removes its listeners and timers: nothing is sent afterwards', async () => {
    const tracker = make({ flushInterval: 100 });
    await started();
    tracker.shown(context);
    tracker.destroy();
    expect(tracker.shown(context)).toBeUndefined();
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('pagehide'));
    window.dispatchEvent(new Event('online'));
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(sent).toEqual([]);
  });
});

describe('storage failures at runtime', () => {
  it('keeps events in memory when a write fails (quota), reports once, delivers them', async () => {
    const tracker = make({ batchSize: 10_000 });
    await tracker.flush(); // the database is open and working
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const ids = [tracker.shown(context)!, tracker.shown(context)!];
    tracker.shown(context);
    await tracker.flush();
    expect(delivered().slice(0, 2)).toEqual(ids);
    expect(errors).toMatchObject([{ name: 'StorageError', cause: { name: 'QuotaExceededError' } }]);
  });
});

describe('without Web Locks', () => {
  it('each tab delivers on its own: two trackers on one queue flushing at once lose nothing', async () => {
    expect((navigator as Navigator & { locks?: unknown }).locks).toBeFalsy(); // happy-dom has none
    const a = make({ namespace: 'shared' });
    const b = make({ namespace: 'shared' });
    const ids = [a.shown(context)!, b.shown(context)!, a.clicked(context)!, b.clicked(context)!];
    await Promise.all([a.flush(), b.flush()]);
    expect(new Set(delivered())).toEqual(new Set(ids));
  });
});
