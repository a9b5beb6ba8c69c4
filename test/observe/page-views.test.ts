// @vitest-environment happy-dom
// Page views follow the URL: the rules with a scripted IntersectionObserver and fake timers. happy-dom
// has no Navigation API, so this is the History API path (wrapped pushState/replaceState, popstate,
// hashchange); the real routers in Chromium, Firefox and WebKit are test/browsers/apps.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { autoObserve, observe } from '../../src/tracker/observe';
import { followPageViews, startPageView } from '../../src/tracker/page-view';
import { context, freshPage, placement, recorder, view } from './support';

beforeEach(() => {
  freshPage(vi);
  history.replaceState(null, '', '/');
});

/** A placement observed and counted once in the current view. */
function counted() {
  const r = recorder();
  const el = placement();
  observe(r.rec, el, context());
  view(el, 1);
  vi.advanceTimersByTime(1_000);
  expect(r.shown()).toHaveLength(1);
  return { ...r, el };
}

/** What a new view's observer reports first: the element still in view. */
function seenAgain(el: Element) {
  view(el, 1);
  vi.advanceTimersByTime(1_000);
}

describe('a new page view', () => {
  it('begins at pushState to a new path: a placement that stays mounted counts again', () => {
    const { el, shown } = counted();
    history.pushState({}, '', '/product/1');
    seenAgain(el);
    history.pushState({}, '', '/product/2');
    seenAgain(el);
    expect(shown()).toHaveLength(3);
  });

  it('begins at a query change, at the back button (popstate) and at a bfcache restore', () => {
    const { el, shown } = counted();
    history.pushState({}, '', '/?page=2');
    seenAgain(el);
    history.pushState({}, '', '/cart');
    seenAgain(el);
    // The back button: the URL is the previous entry's already when popstate fires.
    (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${location.origin}/?page=2`);
    expect(shown()).toHaveLength(3);
    window.dispatchEvent(new PopStateEvent('popstate'));
    seenAgain(el);
    expect(shown()).toHaveLength(4);
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    seenAgain(el);
    expect(shown()).toHaveLength(5);
  });

  it('restarts the one-second rule: a navigation 600 ms into a view needs a full second in the new one', () => {
    const r = recorder();
    const el = placement();
    observe(r.rec, el, context());
    view(el, 1);
    vi.advanceTimersByTime(600);
    history.pushState({}, '', '/next');
    view(el, 1);
    vi.advanceTimersByTime(999);
    expect(r.shown()).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(r.shown()).toHaveLength(1);
  });

  it('counts a re-rendered placement (same context, new node) of the new view once', () => {
    const { el, shown, rec } = counted();
    history.pushState({}, '', '/next');
    el.remove();
    for (let i = 0; i < 2; i++) {
      const node = placement();
      const stop = observe(rec, node, context());
      view(node, 1);
      vi.advanceTimersByTime(1_000);
      if (i === 0) stop();
    }
    expect(shown()).toHaveLength(2);
  });

  it('works for autoObserve without a line of router code', () => {
    const r = recorder();
    const stop = autoObserve(r.rec);
    const el = placement();
    el.setAttribute('data-engage-context', JSON.stringify(context(7)));
    vi.advanceTimersByTime(0); // autoObserve's start, a task later: its walk finds the placement
    view(el, 1);
    vi.advanceTimersByTime(1_000);
    history.pushState({}, '', '/other');
    seenAgain(el);
    expect(r.shown().map((call) => call.context.cid)).toEqual(['cid-7', 'cid-7']);
    stop();
  });
});

describe('not a new page view', () => {
  it('a hash-only change, a replaceState that keeps the URL, a pushState of the same URL', () => {
    const { el, shown } = counted();
    history.pushState({}, '', '/#reviews');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    history.replaceState({ router: 'state' }, '', '/#reviews');
    history.pushState({ other: true }, '', '/#reviews');
    seenAgain(el);
    expect(shown()).toHaveLength(1);
  });

  it('a stopped placement is not restarted by the next view', () => {
    const r = recorder();
    const el = placement();
    const stop = observe(r.rec, el, context());
    stop();
    history.pushState({}, '', '/elsewhere');
    seenAgain(el);
    expect(r.shown()).toHaveLength(0);
  });
});

describe('manual control', () => {
  it("followPageViews(tracker, 'path'): a query change is the same view, a path change is not", () => {
    const { el, shown, rec } = counted();
    followPageViews(rec, 'path');
    history.pushState({}, '', '/?color=red');
    seenAgain(el);
    expect(shown()).toHaveLength(1);
    history.pushState({}, '', '/shoes?color=red');
    seenAgain(el);
    expect(shown()).toHaveLength(2);
  });

  it("followPageViews(tracker, 'path+query+hash'): a hash router's change is a new view", () => {
    const { el, shown, rec } = counted();
    followPageViews(rec, 'path+query+hash');
    history.pushState({}, '', '/#/product/1');
    seenAgain(el);
    expect(shown()).toHaveLength(2);
  });

  it('followPageViews(tracker, false) follows nothing; startPageView(tracker) begins a view', () => {
    const { el, shown, rec } = counted();
    followPageViews(rec, false);
    history.pushState({}, '', '/step-2');
    seenAgain(el);
    expect(shown()).toHaveLength(1);
    startPageView(rec);
    seenAgain(el);
    expect(shown()).toHaveLength(2);
  });

  it('two trackers keep separate views', () => {
    const a = counted();
    const b = counted();
    startPageView(a.rec);
    seenAgain(a.el);
    seenAgain(b.el);
    expect([a.shown().length, b.shown().length]).toEqual([2, 1]);
  });

  it('an unknown follow value warns with the field and the rule and keeps the default', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { el, shown, rec } = counted();
    followPageViews(rec, 'pathname' as never);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/follow.*'path', 'path\+query', 'path\+query\+hash' or false/));
    history.pushState({}, '', '/?q=1');
    seenAgain(el);
    expect(shown()).toHaveLength(2);
    warn.mockRestore();
  });
});
