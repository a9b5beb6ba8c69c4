// @vitest-environment happy-dom
// Consent's pure logic, with a stubbed fetch and fake-indexeddb: what is held, stored, sent and
// dropped in each state. The proof in real engines, against the real proxy, is
// test/browsers/consent.ts.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngageError } from '../../src/errors';
import { createTracker } from '../../src/tracker/create-tracker';
import { trackerState } from '../../src/tracker/lifecycle';
import type { Tracker, TrackerOptions } from '../../src/tracker/types';
import { context, started } from './fixtures';

let sent: string[][];
let errors: EngageError[];
let trackers: Tracker[];
let offline: boolean;

const fetchStub = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
  if (offline) throw new TypeError('offline');
  const body = JSON.parse(init!.body as string) as { elements: Array<{ actions: Array<{ svc_event_uuid: string }> }> };
  sent.push(body.elements.flatMap((element) => element.actions.map((action) => action.svc_event_uuid)));
  return Response.json({ status: 'success' });
});

function make(options: Partial<TrackerOptions> = {}): Tracker {
  const tracker = createTracker({ endpoint: '/engage', customerId: 'u-1', fetch: fetchStub, onError: (error) => errors.push(error), flushInterval: 60_000, ...options });
  trackers.push(tracker);
  return tracker;
}

const delivered = () => sent.flat();
/** Every trace engage-sdk could leave: IndexedDB databases, storage keys, cookies. */
const traces = async () => ({
  databases: (await indexedDB.databases()).map((db) => db.name),
  localStorage: Object.keys(localStorage),
  sessionStorage: Object.keys(sessionStorage),
  cookies: document.cookie,
});
const NONE = { databases: [], localStorage: [], sessionStorage: [], cookies: '' };
const record = (tracker: Tracker, shown: number) => [...Array.from({ length: shown }, () => tracker.shown(context)!), tracker.clicked(context, { b_id: 'Buy' })!];
/** The page going away, as every engine says it. */
const closePage = () => {
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
  window.dispatchEvent(new Event('pagehide'));
};
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  localStorage.clear();
  sessionStorage.clear();
  sent = [];
  errors = [];
  trackers = [];
  offline = false;
  fetchStub.mockClear();
});
afterEach(() => {
  for (const tracker of trackers) tracker.destroy();
  delete (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl;
  delete (navigator as { sendBeacon?: unknown }).sendBeacon;
  delete (document as { visibilityState?: unknown }).visibilityState;
  vi.restoreAllMocks();
});

describe('consent', () => {
  it('pending: records in memory only — no database, no storage key, no cookie, no request, not even from a closing page', async () => {
    const beacons: string[] = [];
    Object.defineProperty(navigator, 'sendBeacon', { value: (_: string, body: string) => beacons.push(body) > 0, configurable: true });
    const tracker = make({ consent: 'pending' });
    const ids = record(tracker, 3);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    await tracker.flush();
    closePage();
    await settle();
    expect(await traces()).toEqual(NONE);
    expect(fetchStub).not.toHaveBeenCalled();
    expect(beacons).toEqual([]);
    expect(trackerState(tracker)).toMatchObject({ consent: 'pending', optedOut: false });
  });

  it('pending → granted: exactly the held events are stored and delivered once, then later ones', async () => {
    const tracker = make({ consent: 'pending' });
    const held = record(tracker, 3);
    tracker.consent('granted');
    const later = tracker.shown(context)!;
    await tracker.flush();
    expect(delivered()).toEqual([...held, later]);
    await tracker.flush();
    expect(delivered()).toEqual([...held, later]);
    expect(errors).toEqual([]);
  });

  it('pending → granted while offline: the held events are durable, and the next page delivers them', async () => {
    offline = true;
    const tracker = make({ consent: 'pending' });
    const held = record(tracker, 3);
    tracker.consent('granted');
    await expect(tracker.flush()).rejects.toMatchObject({ name: 'NetworkError' });
    expect((await traces()).databases).toEqual(['engage-sdk-v1']);
    tracker.destroy();
    offline = false;
    const next = make();
    await next.flush();
    expect(delivered()).toEqual(held);
  });

  it('pending → denied: nothing sent, nothing stored but the remembered denial; the next page stays denied', async () => {
    const tracker = make({ consent: 'pending' });
    record(tracker, 3);
    tracker.consent('denied');
    expect(tracker.shown(context)).toBeUndefined();
    closePage();
    await settle();
    expect(await traces()).toEqual({ ...NONE, localStorage: ['engage-sdk:v1:default:opt-out'] });
    tracker.destroy();
    const next = make({ consent: 'pending' });
    // The remembered denial is read by the start, a task after the tracker's (issue 51).
    await started();
    expect(trackerState(next)).toMatchObject({ consent: 'denied' });
    expect(next.shown(context)).toBeUndefined();
    // Asked again (the banner reopened): held in memory, the denial still remembered; a grant lifts it.
    next.consent('pending');
    const held = next.shown(context)!;
    expect(localStorage.getItem('engage-sdk:v1:default:opt-out')).toBe('1');
    next.consent('granted');
    const id = next.shown(context)!;
    await next.flush();
    expect(delivered()).toEqual([held, id]);
    expect(localStorage.length).toBe(0);
  });

  it('granted → denied clears the durable queue (what a service worker would deliver from)', async () => {
    offline = true;
    const tracker = make();
    record(tracker, 2);
    await expect(tracker.flush()).rejects.toMatchObject({ name: 'NetworkError' });
    tracker.optOut();
    await settle();
    tracker.destroy();
    offline = false;
    const next = make({ consent: 'pending' });
    next.consent('granted');
    await next.flush();
    expect(delivered()).toEqual([]);
  });

  it('a denial from a page that never stored anything clears an earlier page’s queue, and creates no database', async () => {
    offline = true;
    const earlier = make();
    record(earlier, 1);
    await expect(earlier.flush()).rejects.toMatchObject({ name: 'NetworkError' });
    earlier.destroy();
    offline = false;
    const tracker = make({ consent: 'pending' });
    tracker.consent('denied');
    await settle();
    tracker.consent('granted');
    await tracker.flush();
    expect(delivered()).toEqual([]);

    globalThis.indexedDB = new IDBFactory();
    make({ consent: 'denied' });
    await settle();
    expect((await traces()).databases).toEqual([]);
  });

  it('holds the first 1,000 while pending; the rest are counted and reported on the grant', async () => {
    const tracker = make({ consent: 'pending', batchSize: 2_000 });
    const ids = Array.from({ length: 1_005 }, () => tracker.shown(context)!);
    tracker.consent('granted');
    await tracker.flush();
    // The first 1,000, each once (in the order the queue reads them: by time, then by segment).
    expect(delivered()).toHaveLength(1_000);
    expect(new Set(delivered())).toEqual(new Set(ids.slice(0, 1_000)));
    expect(errors).toMatchObject([{ name: 'DroppedEventsError', count: 5, reason: 'consent-pending' }]);
  });

  it('Global Privacy Control is a denial by default (no call lifts it, nothing written); honorGlobalPrivacyControl: false lets it pass', async () => {
    Object.defineProperty(navigator, 'globalPrivacyControl', { value: true, configurable: true });
    const tracker = make();
    expect(tracker.shown(context)).toBeUndefined();
    tracker.consent('granted');
    expect(tracker.shown(context)).toBeUndefined();
    expect(trackerState(tracker)).toMatchObject({ consent: 'denied' });
    await tracker.flush();
    await settle();
    expect(await traces()).toEqual(NONE);
    expect(fetchStub).not.toHaveBeenCalled();

    const allowed = make({ honorGlobalPrivacyControl: false });
    const id = allowed.shown(context)!;
    await allowed.flush();
    expect(delivered()).toEqual([id]);
  });

  it('refuses a state it does not know, naming the field, and keeps its own', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const tracker = make({ consent: 'pending' });
    tracker.consent('yes' as never);
    expect(errors).toMatchObject([{ name: 'ValidationError', field: 'consent' }]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("consent: must be 'granted', 'pending' or 'denied'"));
    expect(trackerState(tracker)).toMatchObject({ consent: 'pending' });
    // A bad option is refused the same way, and holds (nothing stored or sent) rather than guess.
    const bad = make({ consent: 'ok' as never });
    expect(trackerState(bad)).toMatchObject({ consent: 'pending' });
  });
});
