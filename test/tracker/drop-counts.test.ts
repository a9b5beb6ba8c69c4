// @vitest-environment happy-dom
// The loss report (issue 41) with a stubbed fetch and fake-indexeddb: which drop counts under
// which reason, how the counts ride on a request's query, when they are cleared, and that a
// reload, a second tab and consent neither lose nor double them. The proof in real browsers is
// test/browsers/drop-report.ts.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { createStore, get } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTracker } from '../../src/tracker/create-tracker';
import { onLifecycle } from '../../src/tracker/lifecycle';
import type { Tracker, TrackerOptions } from '../../src/tracker/types';
import { context, started } from './fixtures';

interface Sent {
  url: URL;
  uuids: string[];
}

let sent: Sent[];
let answer: (sent: Sent) => Response | Promise<Response>;
let trackers: Tracker[];

const fetchStub = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
  const body = JSON.parse(init!.body as string) as { elements: Array<{ actions: Array<{ svc_event_uuid: string }> }> };
  const entry: Sent = { url: new URL(url as string), uuids: body.elements.flatMap((e) => e.actions.map((a) => a.svc_event_uuid)) };
  sent.push(entry);
  return answer(entry);
});

function make(options: Partial<TrackerOptions> = {}): Tracker {
  const tracker = createTracker({ endpoint: 'https://shop.test/engage', customerId: 'u-1', fetch: fetchStub, onError: () => {}, flushInterval: 60_000, ...options });
  trackers.push(tracker);
  return tracker;
}

const REASONS = ['expired', 'refused', 'queue_full', 'consent_overflow', 'invalid', 'destroyed'];
/** The report a request carried: [id, { reason: count }] (counts by position, zeros left out), or undefined. */
function report(entry: Sent): [string, Record<string, number>] | undefined {
  const value = entry.url.searchParams.get('drops');
  if (value === null) return undefined;
  const [id, ...counts] = value.split(',');
  expect(counts).toHaveLength(REASONS.length);
  return [id!, Object.fromEntries(counts.map((count, i) => [REASONS[i]!, Number(count)]).filter(([, count]) => count))];
}

/** What a proxy would count: each report id once, only from requests answered 2xx. */
function counted(entries: Sent[], ok = (entry: Sent) => entry !== undefined): Record<string, number> {
  const seen = new Set<string>();
  const total: Record<string, number> = {};
  for (const entry of entries) {
    const carried = report(entry);
    if (!carried || !ok(entry) || seen.has(carried[0])) continue;
    seen.add(carried[0]);
    for (const [reason, count] of Object.entries(carried[1])) total[reason] = (total[reason] ?? 0) + count;
  }
  return total;
}

const broken = { cid: '' } as unknown as typeof context;

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  localStorage.clear();
  sent = [];
  trackers = [];
  answer = () => Response.json({ status: 'success' });
  fetchStub.mockClear();
});
afterEach(() => {
  for (const tracker of trackers) tracker.destroy();
  vi.restoreAllMocks();
});

describe('the loss report', () => {
  it('counts a queue of 5 with 8 recorded as queue_full 3, and an empty cid as invalid 1, on the next request', async () => {
    const tracker = make({ maxQueueSize: 5 });
    for (let i = 0; i < 8; i++) tracker.shown(context);
    expect(tracker.shown(broken)).toBeUndefined();
    await tracker.flush();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.uuids).toHaveLength(5);
    expect(report(sent[0]!)?.[1]).toEqual({ invalid: 1, queue_full: 3 });
    expect(sent[0]!.url.searchParams.get('sent_at')).toMatch(/^\d+$/);
    // Cleared by the 2xx: later requests carry nothing.
    tracker.shown(context);
    await tracker.flush();
    expect(sent).toHaveLength(2);
    expect(report(sent[1]!)).toBeUndefined();
  });

  it('counts an expired event and a refused one', async () => {
    const tracker = make({ maxEventAge: 1_000 });
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now - 5_000);
    tracker.shown(context);
    vi.spyOn(Date, 'now').mockReturnValue(now);
    const refused = tracker.shown(context)!;
    answer = (entry) => (entry.uuids.includes(refused) ? Response.json({ status: 'error' }, { status: 400 }) : Response.json({ status: 'success' }));
    await tracker.flush();
    // The refused event's own request carried the expired count and was answered 400: not cleared.
    expect(report(sent[0]!)?.[1]).toEqual({ expired: 1 });
    tracker.shown(context);
    await tracker.flush();
    const last = report(sent.at(-1)!);
    // The same report (same id) again, and the refusal waits for the next one.
    expect(last).toEqual([report(sent[0]!)![0], { expired: 1 }]);
    tracker.shown(context);
    await tracker.flush();
    expect(report(sent.at(-1)!)?.[1]).toEqual({ refused: 1 });
    expect(counted(sent, (entry) => !entry.uuids.includes(refused))).toEqual({ expired: 1, refused: 1 });
  });

  it('keeps a report across a reload until a 2xx, and never counts it twice', async () => {
    answer = () => Promise.reject(new TypeError('offline'));
    const first = make({ maxQueueSize: 2 });
    for (let i = 0; i < 5; i++) first.shown(context);
    await expect(first.flush()).rejects.toBeTruthy();
    first.destroy();
    const failedId = report(sent[0]!)![0];
    answer = () => Response.json({ status: 'success' });
    const second = make({ maxQueueSize: 2 });
    await second.flush();
    // The reloaded page sends the report the first one made, with its id: the proxy counts an id once.
    expect(report(sent.at(-1)!)).toEqual([failedId, { queue_full: 3 }]);
    second.shown(context);
    await second.flush();
    expect(report(sent.at(-1)!)).toBeUndefined();
    expect(counted(sent.slice(1))).toEqual({ queue_full: 3 });
  });

  it('two tabs send one report, never a copy each', async () => {
    const a = make({ maxQueueSize: 1 });
    const b = make({ maxQueueSize: 1 });
    a.shown(context);
    a.shown(context);
    b.shown(context);
    // Both tabs have started (issue 51: a task later), so b's event is in the shared queue too.
    await started();
    // Tab a drops two and claims the report; its request fails, so the report stays claimed.
    answer = () => Promise.reject(new TypeError('offline'));
    await expect(a.flush()).rejects.toBeTruthy();
    const claimed = report(sent[0]!)!;
    expect(claimed[1]).toEqual({ queue_full: 2 });
    // Tab b's run states the same report, by id, not a copy of the counts; its 2xx clears it for both.
    answer = () => Response.json({ status: 'success' });
    await b.flush();
    expect(report(sent.at(-1)!)).toEqual(claimed);
    a.shown(context);
    await a.flush();
    expect(report(sent.at(-1)!)).toBeUndefined();
    expect(counted(sent.slice(1))).toEqual({ queue_full: 2 });
    expect(
      new Set(
        sent
          .map(report)
          .filter(Boolean)
          .map((r) => r![0]),
      ),
    ).toEqual(new Set([claimed[0]]));
  });

  it('counts nothing and sends nothing while pending, then denied', async () => {
    const tracker = make({ consent: 'pending' });
    for (let i = 0; i < 1_005; i++) tracker.shown(context);
    tracker.shown(broken);
    tracker.consent('denied');
    await tracker.flush();
    tracker.shown(context);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toHaveLength(0);
    // A later grant finds no count of what happened before the denial.
    tracker.consent('granted');
    tracker.shown(context);
    await tracker.flush();
    expect(sent).toHaveLength(1);
    expect(report(sent[0]!)).toBeUndefined();
  });

  it('counts consent_overflow past the bound held while pending, once granted', async () => {
    const tracker = make({ consent: 'pending' });
    for (let i = 0; i < 1_003; i++) tracker.shown(context);
    tracker.shown(broken);
    tracker.consent('granted');
    await tracker.flush();
    expect(sent.flatMap((entry) => entry.uuids)).toHaveLength(1_000);
    expect(counted(sent)).toEqual({ consent_overflow: 3, invalid: 1 });
  });

  it('counts a call after destroy() as destroyed, sent by the next page', async () => {
    const first = make();
    first.destroy();
    expect(first.shown(context)).toBeUndefined();
    // The next page comes once the count is stored: the destroyed tracker writes it when its start
    // has run, tasks later (a tracker made before then carries it on a later run; made at once,
    // it lost that race on a loaded CI machine).
    const store = createStore('engage-sdk-v1', 'queue');
    await vi.waitFor(async () => expect((await get<[number[]]>('drops:default', store))?.[0]).toEqual([0, 0, 0, 0, 0, 1]), { timeout: 5_000 });
    const second = make();
    second.shown(context);
    await second.flush();
    expect(counted(sent)).toEqual({ destroyed: 1 });
  });

  it('a delivery run with nothing to report opens no readwrite transaction for it (issue 47 §4)', async () => {
    const tracker = make();
    const stored = new Promise((resolve) => onLifecycle(tracker, (event) => event.type === 'stored' && resolve(event)));
    tracker.shown(context);
    // Written to IndexedDB before the run, so that only the run's own transactions are seen.
    await stored;
    // Every transaction the run opens, by mode (the spy calls through to fake-indexeddb).
    const modesOf = async (run: () => Promise<void>) => {
      const spy = vi.spyOn(IDBDatabase.prototype, 'transaction');
      await run();
      const modes = spy.mock.calls.map(([, mode]) => mode ?? 'readonly');
      spy.mockRestore();
      return modes;
    };
    let modes = await modesOf(() => tracker.flush());
    expect(sent).toHaveLength(1);
    expect(report(sent[0]!)).toBeUndefined();
    // The run reads the queue and the (absent) report, then removes the delivered event: one readwrite, the removal's.
    expect(modes.filter((mode) => mode === 'readwrite')).toHaveLength(1);
    expect(modes.filter((mode) => mode === 'readonly').length).toBeGreaterThanOrEqual(2);
    // With a drop to report, the claim writes: the report's id is stored before the request.
    tracker.shown({ ...context, cid: '' });
    tracker.shown(context);
    modes = await modesOf(() => tracker.flush());
    expect(counted(sent)).toEqual({ invalid: 1 });
    expect(modes.filter((mode) => mode === 'readwrite').length).toBeGreaterThanOrEqual(2);
  });

  it('a beacon carries the report too', async () => {
    const beacons: string[] = [];
    Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: (url: string) => (beacons.push(url), true) });
    const hanging = vi.fn((_url: RequestInfo | URL) => new Promise<Response>(() => {}));
    vi.stubGlobal('fetch', hanging);
    const tracker = createTracker({ endpoint: 'https://shop.test/engage', customerId: 'u-1', maxQueueSize: 1, flushInterval: 60_000 });
    trackers.push(tracker);
    tracker.shown(context);
    tracker.shown(context);
    void tracker.flush();
    await vi.waitFor(() => expect(hanging).toHaveBeenCalledTimes(1));
    const carried = new URL(hanging.mock.calls[0]![0] as string).searchParams.get('drops');
    expect(carried).toMatch(/^[0-9a-f-]{36},0,0,1,0,0,0$/);
    tracker.shown(context);
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons).toHaveLength(1);
    expect(new URL(beacons[0]!).searchParams.get('drops')).toBe(carried);
    vi.unstubAllGlobals();
  });
});
