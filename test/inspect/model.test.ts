// The inspector's model and wording, without a browser: what each lifecycle event does to an
// event's row, and the words a placement's label says for each reason it does or does not count.
import { describe, expect, it } from 'vitest';
import { createModel, describeDeviceClock, describeDrops, describePlacement, type PlacementRow } from '../../src/inspect/model';
import { HttpError, NetworkError } from '../../src/errors';
import { context } from '../tracker/fixtures';

const element = {} as Element;
const row = (extra: Partial<PlacementRow> = {}): PlacementRow => ({
  element,
  context,
  observed: true,
  inView: false,
  tabHidden: false,
  alreadyCounted: false,
  clicks: 0,
  ...extra,
});
const say = (extra: Partial<PlacementRow>, ratio = 0, optedOut = false) =>
  describePlacement(row(extra), ratio, { endpoint: '/e', customerId: 'u', optedOut, consent: optedOut ? 'denied' : 'granted' }, new Map(), 10_000).lines.join(' | ');

describe('describePlacement: why, in words', () => {
  it('names the experience and variation', () => {
    expect(describePlacement(row(), 0, undefined, new Map(), 0).title).toBe('Homepage hero · variation 2');
  });
  it('not in view, less than half, less than 1 s, tab hidden, counting', () => {
    expect(say({})).toBe('not in view');
    expect(say({}, 0.3)).toBe('30 % in view: less than half in view');
    expect(say({ lastSpell: 640 })).toBe('not in view | was in view for 640 ms: less than 1 s');
    expect(say({ inView: true, tabHidden: true }, 0.8)).toBe('80 % in view, but the tab is hidden: the second waits');
    expect(say({ inView: true, since: 9_600 }, 1)).toBe('100 % in view for 400 ms (counts at 1 s)');
  });
  it('counted, refused, invalid, already counted, not observed, opted out, clicked', () => {
    expect(say({ countedAt: 0, uuid: 'u-1', clicks: 2 })).toMatch(/^counted at \d\d:\d\d:\d\d \| clicked ×2$/);
    expect(say({ countedAt: 0 })).toBe('not counted: refused by the tracker');
    expect(say({ countedAt: 0 }, 0, true)).toBe('not counted: opted out | opted out: nothing is recorded');
    expect(say({ invalid: 'context.cid: must be a non-empty string' })).toBe('not counted: invalid data-engage-context (context.cid: must be a non-empty string)');
    expect(say({ alreadyCounted: true, inView: true })).toBe('not counted again: already counted in this page view');
    expect(say({ observed: false })).toMatch(/^not observed/);
  });
});

describe('createModel', () => {
  const record = (uuid: string) => ({ uuid, action: 'shown' as const, attributes: { ...context }, customerId: 'u', recordedAt: 0 });

  it('moves a row forward only: a late "stored" after delivery changes nothing; refused keeps it queued', () => {
    const model = createModel();
    model.take({ type: 'recorded', record: record('a') });
    model.take({ type: 'sending', uuids: ['a'] });
    model.take({ type: 'refused', uuids: ['a'], status: 503, error: new HttpError(503, { body: { error: { message: 'upstream down' } } }) });
    expect(model.events.get('a')).toMatchObject({ state: 'refused', detail: 'HTTP 503: HTTP 503 · upstream down' });
    expect(model.queueLength()).toBe(1);
    model.take({ type: 'delivered', uuids: ['a'], status: 200 });
    model.take({ type: 'stored', uuids: ['a'] });
    expect(model.events.get('a')!.state).toBe('delivered');
    expect(model.queueLength()).toBe(0);
    expect(model.lastAnswer).toMatchObject({ status: 200 });
  });

  it('counts the queue from what a run read, and empties it on opting out', () => {
    const model = createModel();
    model.take({ type: 'queued', records: [record('old-1'), record('old-2')] });
    model.take({ type: 'refused', uuids: ['old-1'], status: 0, error: new NetworkError() });
    expect(model.queueLength()).toBe(2);
    expect(model.lastAnswer).toMatchObject({ status: 0, message: 'Network request failed' });
    model.state({ endpoint: '/e', customerId: 'u', optedOut: true, consent: 'denied' });
    expect(model.queueLength()).toBe(0);
    expect(model.events.get('old-2')).toMatchObject({ state: 'dropped', detail: 'opted out: the queue was emptied' });
  });

  it('times a spell in view, and keeps how long it lasted when it ended early', () => {
    const model = createModel();
    model.take({ type: 'placement', element, context, inView: true, tabHidden: false, counted: false, at: 1_000 });
    expect(model.placements.get(element)).toMatchObject({ since: 1_000 });
    model.take({ type: 'placement', element, context, inView: false, tabHidden: false, counted: false, at: 1_700 });
    expect(model.placements.get(element)).toMatchObject({ since: undefined, lastSpell: 700 });
    model.take({ type: 'counted', element, context, uuid: 'x', at: 3_000 });
    expect(model.placements.get(element)).toMatchObject({ countedAt: 3_000, uuid: 'x' });
    // A new page view: observe reports the placement again, and it may count again.
    model.take({ type: 'placement', element, context, inView: false, tabHidden: false, counted: false, at: 5_000 });
    expect(model.placements.get(element)).toMatchObject({ countedAt: undefined, uuid: undefined });
  });
});

describe('the device clock, in words', () => {
  it('names how far off and which way, from the proxy’s measure', () => {
    expect(describeDeviceClock(undefined)).toBe('not measured yet: the proxy has not answered');
    expect(describeDeviceClock(-1_400)).toBe('right (within 2 s of the proxy)');
    expect(describeDeviceClock(600_250)).toBe('device clock 10 min fast — corrected by the proxy');
    expect(describeDeviceClock(90_040)).toBe('device clock 90 s fast — corrected by the proxy');
    expect(describeDeviceClock(-86_400_000)).toBe('device clock 24 h slow — corrected by the proxy');
    expect(describeDeviceClock(-3 * 365 * 86_400_000)).toBe('device clock 3 years slow — corrected by the proxy');
  });

  it('keeps the last measure the proxy gave, delivered or refused', () => {
    const model = createModel();
    model.take({ type: 'recorded', record: { uuid: 'a', action: 'shown', attributes: context as never, customerId: 'u', recordedAt: 0 } });
    model.take({ type: 'delivered', uuids: ['a'], status: 200, deviceClockMs: 600_000 });
    expect(model.deviceClockMs).toBe(600_000);
    model.take({ type: 'refused', uuids: ['a'], status: 0, error: new NetworkError() });
    expect(model.deviceClockMs).toBe(600_000);
  });

  it('says whether the proxy took this browser for a crawler, from its last delivery answer', () => {
    const model = createModel();
    expect(model.crawler).toBeUndefined();
    model.take({ type: 'delivered', uuids: [], status: 200, crawler: true });
    expect(model.crawler).toBe(true);
    model.take({ type: 'delivered', uuids: [], status: 200, crawler: false });
    expect(model.crawler).toBe(false);
  });
});

describe('this page’s drops by reason (issue 41)', () => {
  it('counts every reason the tracker reports as lost, and nothing twice for the events that left the queue', () => {
    const model = createModel();
    expect(describeDrops(model.drops)).toBe('none on this page');
    // A drop of queued events comes as `dropped` (the rows) and `lost` (the count): counted once.
    model.take({ type: 'dropped', uuids: ['a', 'b'], reason: 'expired' });
    model.take({ type: 'lost', reason: 'expired', count: 2 });
    model.take({ type: 'dropped', uuids: ['c', 'd', 'e'], reason: 'overflow' });
    model.take({ type: 'lost', reason: 'queue_full', count: 3 });
    model.take({ type: 'dropped', uuids: ['f'], reason: 'rejected', error: new HttpError(400, {}) });
    model.take({ type: 'lost', reason: 'refused', count: 1 });
    // Direct calls, with no UUID to name: a refused impression is a `counted` without one, and its `lost`.
    model.take({ type: 'counted', element, context, uuid: undefined, at: 1 });
    model.take({ type: 'lost', reason: 'invalid', count: 1 });
    model.take({ type: 'lost', reason: 'consent_overflow', count: 4 });
    model.take({ type: 'lost', reason: 'destroyed', count: 1 });
    expect(model.drops).toEqual({ expired: 2, queue_full: 3, refused: 1, invalid: 1, consent_overflow: 4, destroyed: 1 });
    expect(describeDrops(model.drops)).toBe('expired 2 · queue_full 3 · refused 1 · invalid 1 · consent_overflow 4 · destroyed 1 — counted for the proxy’s loss report');
  });
});
