// @vitest-environment happy-dom
// engage-sdk/react with the real React and react-dom (client and server), a scripted
// IntersectionObserver and fake timers. The real apps (React Router, Next.js) in three engines are
// test/browsers/apps.
import { act, createElement as h, StrictMode, useState } from 'react';
import { hydrateRoot, createRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngageProvider, Experience, useExperience, useTracker } from '../../src/react/index';
import type { Tracker } from '../../src/tracker/types';
import { context, FakeIO, freshPage, recorder, view } from '../observe/support';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement;
beforeEach(() => {
  freshPage(vi);
  history.replaceState(null, '', '/');
  container = document.createElement('div');
  document.body.append(container);
});
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
});

const asTracker = (rec: ReturnType<typeof recorder>['rec']) => rec as unknown as Tracker;
const render = (node: ReturnType<typeof h>) => act(() => (root ??= createRoot(container)).render(h(StrictMode, null, node)));
const seen = (element: Element) => {
  void act(() => view(element, 1));
  void act(() => vi.advanceTimersByTime(1_000));
};

describe('<Experience> under StrictMode', () => {
  it('counts one impression though effects run twice, a click with its b_id, and stops on unmount', () => {
    const { rec, shown, clicks } = recorder();
    render(
      h(EngageProvider, { tracker: asTracker(rec) }, h(Experience, { context: context(), as: 'section', id: 'hero' }, h('a', { 'data-engage-b-id': 'shop' }, 'Shop'))),
    );
    const hero = container.querySelector('section#hero')!;
    seen(hero);
    expect(shown()).toHaveLength(1);
    act(() => hero.querySelector('a')!.click());
    expect(clicks().map((call) => call.attributes)).toEqual([{ b_id: 'shop' }]);
    render(h(EngageProvider, { tracker: asTracker(rec) }, null));
    // Nothing is observed any more (every placement shares one observer, which stays).
    expect(FakeIO.all.flatMap((io) => io.targets)).toEqual([]);
    void act(() => hero.dispatchEvent(new MouseEvent('click', { bubbles: true })));
    expect(clicks()).toHaveLength(1);
  });

  it('a re-render with an equal context object (made anew) is the same placement; a new page view counts it again', () => {
    const { rec, shown } = recorder();
    const app = () => h(EngageProvider, { tracker: asTracker(rec) }, h(Experience, { context: { ...context() }, id: 'p' }));
    render(app());
    seen(container.querySelector('#p')!);
    render(app());
    seen(container.querySelector('#p')!);
    expect(shown()).toHaveLength(1);
    act(() => history.pushState({}, '', '/next'));
    seen(container.querySelector('#p')!);
    expect(shown()).toHaveLength(2);
  });

  it('useExperience follows an element that appears after mount, and observes nothing without a context', () => {
    const { rec, shown } = recorder();
    let show: (value: boolean) => void = () => {};
    function Late() {
      const [visible, setVisible] = useState(false);
      show = setVisible;
      const ref = useExperience<HTMLDivElement>(visible ? context(2) : null);
      return visible ? h('div', { ref, id: 'late' }) : h('p', null, 'loading');
    }
    render(h(EngageProvider, { tracker: asTracker(rec) }, h(Late)));
    expect(FakeIO.all.flatMap((io) => io.targets)).toEqual([]);
    act(() => show(true));
    seen(container.querySelector('#late')!);
    expect(shown().map((call) => call.context.cid)).toEqual(['cid-2']);
  });

  it('useTracker gives the provider’s tracker; without a provider a placement warns once, naming it, and counts nothing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { rec } = recorder();
    let got: unknown;
    const Probe = () => ((got = useTracker()), null);
    render(h(EngageProvider, { tracker: asTracker(rec) }, h(Probe)));
    expect(got).toBe(rec);
    render(h('div', null, h(Experience, { context: context(), id: 'a' }), h(Experience, { context: context(3), id: 'b' })));
    expect(warn.mock.calls.map(String)).toEqual([expect.stringContaining('EngageProvider: must wrap every component that uses useExperience or <Experience>')]);
    expect(FakeIO.all.flatMap((io) => io.targets)).toEqual([]);
    warn.mockRestore();
  });

  it('the provider’s consent prop reaches tracker.consent() when it changes, not on every render; null leaves the tracker alone', () => {
    const states: string[] = [];
    const tracker = { consent: (state: string) => states.push(state) } as unknown as Tracker;
    render(h(EngageProvider, { tracker, consent: null }, null));
    expect(states).toEqual([]);
    render(h(EngageProvider, { tracker, consent: 'pending' }, null));
    render(h(EngageProvider, { tracker, consent: 'pending' }, h('p')));
    render(h(EngageProvider, { tracker, consent: 'granted' }, h('p')));
    // StrictMode runs a new effect twice on mount: the first value may come twice, never a stale one.
    expect(states.filter((state, i) => state !== states[i - 1])).toEqual(['pending', 'granted']);
  });

  it('the provider’s customerId prop: a value identifies, a value that goes away is a sign-out (reset), none from the start changes nothing', () => {
    const calls: string[] = [];
    const tracker = { identify: (id: string) => calls.push(`identify ${id}`), reset: () => calls.push('reset') } as unknown as Tracker;
    const app = (customerId: string | null | undefined) => h(EngageProvider, { tracker, customerId }, h('p'));
    render(app(undefined));
    render(app(null));
    // A tracker made with its own customerId option keeps it: no sign-out without a sign-in first.
    expect(calls).toEqual([]);
    render(app('ada'));
    render(app('ada'));
    render(app(undefined));
    render(app(null));
    render(app('bob'));
    render(app(null));
    // StrictMode runs a new effect twice on mount: the first identify may come twice.
    expect(calls.filter((call, i) => call !== calls[i - 1])).toEqual(['identify ada', 'reset', 'identify bob', 'reset']);
  });
});

describe('server rendering', () => {
  it('renders the placement’s markup with no tracker, and hydrates with no warning and one impression', () => {
    const { rec, shown } = recorder();
    const app = (tracker: Tracker | null) => h(EngageProvider, { tracker }, h(Experience, { context: context(), as: 'aside', className: 'promo' }, 'Sale'));
    const html = renderToString(app(null));
    expect(html).toBe('<aside class="promo">Sale</aside>');
    container.innerHTML = html;
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    act(() => void (root = hydrateRoot(container, h(StrictMode, null, app(asTracker(rec))))));
    seen(container.querySelector('aside')!);
    expect(errors).not.toHaveBeenCalled();
    expect(shown()).toHaveLength(1);
    errors.mockRestore();
  });
});
