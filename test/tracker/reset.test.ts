// @vitest-environment happy-dom
// Sign-out (issue 47): reset() forgets the customer; what was recorded before keeps its own. Pure
// tracker logic with a stubbed fetch and fake-indexeddb; the two-tab proof in real browsers is
// test/browsers/sign-out.ts.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngageError } from '../../src/errors';
import { createTracker } from '../../src/tracker/create-tracker';
import type { Tracker, TrackerOptions } from '../../src/tracker/types';
import { context, started } from './fixtures';

interface Element {
  customer_id: string;
  actions: Array<{ svc_event_uuid: string }>;
}

let bodies: Array<{ elements: Element[] }>;
let errors: EngageError[];
let trackers: Tracker[];

const ACK = { status: 'success', message: 'Events processed', req_id: 'r-1' };
const fetchStub = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
  bodies.push(JSON.parse(init!.body as string));
  return Response.json(ACK);
});
let online: boolean;
/** A network that is down until `online` is set. */
const flaky = vi.fn((url: RequestInfo | URL, init?: RequestInit) => (online ? fetchStub(url, init) : Promise.reject(new TypeError('Failed to fetch'))));

function make(options: Partial<TrackerOptions> = {}): Tracker {
  const tracker = createTracker({ endpoint: 'https://shop.test/engage', fetch: fetchStub, onError: (error) => errors.push(error), flushInterval: 60_000, ...options });
  trackers.push(tracker);
  return tracker;
}

/** Each delivered UUID with the customer it was sent for, in order. */
const delivered = () =>
  bodies.flatMap((body) => body.elements.flatMap((element) => element.actions.map((action): [string, string] => [action.svc_event_uuid, element.customer_id])));
/** Lets another tracker's BroadcastChannel message arrive. */
const messages = () => new Promise((resolve) => setTimeout(resolve, 50));

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  localStorage.clear();
  bodies = [];
  errors = [];
  trackers = [];
  fetchStub.mockClear();
  online = false;
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  for (const tracker of trackers) tracker.destroy();
  vi.restoreAllMocks();
});

describe('reset() (sign-out)', () => {
  it('events after it wait for the next identify(); events before keep their customer, delivered once', async () => {
    const tracker = make({ customerId: 'ada' });
    const before = tracker.shown(context)!;
    tracker.reset();
    const after = tracker.clicked(context, { b_id: 'Buy' })!;
    // Not delivered yet when the customer was forgotten: still Ada's.
    await expect(tracker.flush()).rejects.toMatchObject({ field: 'customerId' });
    expect(delivered()).toEqual([[before, 'ada']]);
    // Neither null nor undefined signs anyone in (or out): "not given".
    tracker.identify(null);
    tracker.identify(undefined);
    await expect(tracker.flush()).rejects.toMatchObject({ field: 'customerId' });
    tracker.identify('bob');
    await tracker.flush();
    await tracker.flush();
    expect(delivered()).toEqual([
      [before, 'ada'],
      [after, 'bob'],
    ]);
    expect(errors).toEqual([]);
  });

  it('identify(null) is not a sign-out: the customer stays', async () => {
    const tracker = make({ customerId: 'ada' });
    tracker.identify(null);
    const id = tracker.shown(context)!;
    await tracker.flush();
    expect(delivered()).toEqual([[id, 'ada']]);
  });

  it('an event recorded before the first identify() and not yet delivered stays with that customer after a sign-out', async () => {
    // Offline: nothing leaves before the sign-out, and an event without a customer gets one when it is sent.
    const tracker = make({ fetch: flaky });
    const anonymous = tracker.shown(context)!;
    tracker.identify('ada');
    tracker.reset();
    const next = tracker.shown(context)!;
    tracker.identify('bob');
    await expect(tracker.flush()).rejects.toMatchObject({ code: 'ERR_NETWORK' });
    expect(bodies).toEqual([]);
    online = true;
    await tracker.flush();
    expect(new Map(delivered())).toEqual(
      new Map([
        [anonymous, 'ada'],
        [next, 'bob'],
      ]),
    );
    expect(delivered()).toHaveLength(2);
  });

  it('an event recorded with no customer and no sign-out in between still goes to the next identify()', async () => {
    const tracker = make();
    const id = tracker.shown(context)!;
    tracker.reset(); // nobody was signed in: nothing to fix
    tracker.identify('bob');
    await tracker.flush();
    expect(delivered()).toEqual([[id, 'bob']]);
  });

  it('keeps the customer of events held while consent is pending', async () => {
    const tracker = make({ customerId: 'ada', consent: 'pending' });
    const held = tracker.shown(context)!;
    tracker.reset();
    const after = tracker.shown(context)!;
    tracker.consent('granted');
    tracker.identify('bob');
    await tracker.flush();
    expect(new Map(delivered())).toEqual(
      new Map([
        [held, 'ada'],
        [after, 'bob'],
      ]),
    );
  });

  it('reaches every other tracker of the site on the same queue (namespace), and no other', async () => {
    const tab = make({ customerId: 'ada' });
    const other = make({ customerId: 'ada' });
    const elsewhere = make({ namespace: 'other-app', customerId: 'ada' });
    // Each tab's channel is opened by its start, a task after its tracker (issue 51).
    await started();
    const before = other.shown(context)!;
    tab.reset();
    await messages();
    const after = other.shown(context)!;
    await expect(other.flush()).rejects.toMatchObject({ field: 'customerId' });
    expect(delivered()).toEqual([[before, 'ada']]);
    const kept = elsewhere.shown(context)!;
    await elsewhere.flush();
    expect(delivered()).toEqual([
      [before, 'ada'],
      [kept, 'ada'],
    ]);
    other.identify('bob');
    await other.flush();
    expect(delivered()).toContainEqual([after, 'bob']);
  });

  it('tells the other tabs the customer it fixed, whichever tab delivers', async () => {
    const tab = make({ fetch: flaky });
    const other = make({ customerId: 'carol' });
    await started();
    const anonymous = tab.shown(context)!;
    tab.identify('ada');
    tab.reset();
    await messages();
    other.identify('bob');
    // The other tab sends the shared queue: the waiting event is Ada's, not Bob's.
    await other.flush();
    expect(delivered()).toEqual([[anonymous, 'ada']]);
  });

  it('after destroy(), changes nothing and never throws', () => {
    const tracker = make({ customerId: 'ada' });
    tracker.destroy();
    expect(() => tracker.reset()).not.toThrow();
  });
});
