// @vitest-environment happy-dom
// Placements inside open shadow roots (issue 52): how autoObserve finds the roots (one walk at
// start, a hook on attachShadow, a walk of each subtree a mutation names) and what it costs. The
// same rules in real engines, with Lit, through the proxy and emulator: test/browsers/shadow.ts.
/* eslint-disable @typescript-eslint/unbound-method -- the tests compare attachShadow itself, never call it detached */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { autoObserve, observe } from '../../src/tracker/observe';
import { onShadowRoot, walk } from '../../src/tracker/shadow-roots';
import type { ExperienceContext } from '../../src/tracker/types';
import { context, FakeIO, freshPage, recorder, view } from './support';

const original = Element.prototype.attachShadow;
// What each test started: an autoObserve left running would track the next test's roots.
const stops: Array<() => void> = [];
/** autoObserve, and the task after it, where its first walk of the page runs (issue 51: start-up). */
const auto = async (...args: Parameters<typeof autoObserve>) => {
  const stop = stops[stops.push(autoObserve(...args)) - 1]!;
  await vi.advanceTimersByTimeAsync(0);
  return stop;
};
beforeEach(() => {
  freshPage(vi);
  // happy-dom's shadow roots cannot hit-test; nothing covers anything here.
  (ShadowRoot.prototype as unknown as { elementFromPoint: () => null }).elementFromPoint ??= () => null;
});
afterEach(() => {
  stops.splice(0).forEach((stop) => stop());
  vi.useRealTimers();
});

const tag = (c: ExperienceContext, inner = '<button data-engage-b-id="go">Go</button>') => {
  const div = document.createElement('div');
  div.setAttribute('data-engage-context', JSON.stringify(c));
  div.innerHTML = inner;
  return div;
};
/** A host with an open (or closed) shadow root holding `children`. */
const host = (children: Node[] = [], mode: ShadowRootMode = 'open') => {
  const element = document.createElement('x-host');
  element.attachShadow({ mode }).append(...children);
  return element;
};
const flushMutations = () => vi.advanceTimersByTimeAsync(0);
const observed = () => FakeIO.all.flatMap((io) => (io.disconnected ? [] : io.targets));
const cids = (shown: () => Array<{ context: ExperienceContext }>) =>
  shown()
    .map((c) => c.context.cid)
    .sort();

describe('autoObserve in open shadow roots', () => {
  it('finds placements in roots present at start, two roots deep too', async () => {
    const { rec, shown } = recorder();
    const one = tag(context(1));
    const two = tag(context(2));
    document.body.append(host([one, host([two])]));
    await auto(rec);
    expect(observed()).toEqual([one, two]);
    view(one, 1);
    view(two, 1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(cids(shown)).toEqual(['cid-1', 'cid-2']);
  });

  it('finds a root attached later to an element in the page (an upgrade: no mutation record), and what the component renders into it', async () => {
    const { rec, shown } = recorder();
    const element = document.createElement('x-late');
    document.body.append(element);
    await auto(rec);
    await flushMutations();
    const root = element.attachShadow({ mode: 'open' });
    const placement = tag(context(3));
    root.append(document.createElement('header'), placement);
    await flushMutations();
    expect(observed()).toEqual([placement]);
    view(placement, 1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(cids(shown)).toEqual(['cid-3']);
  });

  it('finds a component that rendered before it was inserted, and a context added or changed inside a root later', async () => {
    const { rec, shown } = recorder();
    await auto(rec);
    const inner = tag(context(4));
    const component = host([inner]);
    expect(observed()).toEqual([]);
    document.body.append(component);
    await flushMutations();
    expect(observed()).toEqual([inner]);
    const later = document.createElement('div');
    component.shadowRoot!.append(later);
    await flushMutations();
    later.setAttribute('data-engage-context', JSON.stringify(context(5)));
    await flushMutations();
    inner.setAttribute('data-engage-context', JSON.stringify(context(6)));
    await flushMutations();
    view(inner, 1);
    view(later, 1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(cids(shown)).toEqual(['cid-5', 'cid-6']);
  });

  it('a re-rendered placement in a root counts once per page view', async () => {
    const { rec, shown } = recorder();
    const first = tag(context(7));
    const component = host([first]);
    document.body.append(component);
    await auto(rec);
    view(first, 1);
    await vi.advanceTimersByTimeAsync(1_000);
    const again = tag(context(7), '<p>re-rendered</p>');
    first.replaceWith(again);
    await flushMutations();
    view(again, 1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(shown()).toHaveLength(1);
  });

  it('a placement removed from a root, or with its host (two roots deep), stops', async () => {
    const { rec, calls } = recorder();
    const alone = tag(context(8));
    const deep = tag(context(9));
    const outer = host([alone, host([deep])]);
    document.body.append(outer);
    await auto(rec);
    alone.remove();
    await flushMutations();
    expect(observed()).toEqual([deep]);
    outer.remove();
    await flushMutations();
    expect(observed()).toEqual([]);
    for (const el of [alone, deep]) {
      view(el, 1);
      el.querySelector('button')!.click();
    }
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls).toEqual([]);
    // Inserted again: observed again.
    document.body.append(outer);
    await flushMutations();
    expect(observed()).toEqual([deep]);
  });

  it('a closed root is not seen; its component declares its placement with observe', async () => {
    const { rec, shown } = recorder();
    const hidden = tag(context(10));
    document.body.append(host([hidden], 'closed'));
    await auto(rec);
    const later = tag(context(11));
    const closedLater = host([later], 'closed');
    document.body.append(closedLater);
    await flushMutations();
    expect(observed()).toEqual([]);
    // What the component itself writes, from inside (the script tag: Engage.observe(element)).
    observe(rec, later);
    view(later, 1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(cids(shown)).toEqual(['cid-11']);
  });

  it('a click inside records the b_id of the nearest control within the placement, through nested roots', async () => {
    const { rec, clicks } = recorder();
    const button = document.createElement('button');
    button.setAttribute('data-engage-b-id', 'inner-buy');
    const span = document.createElement('span');
    button.append(span);
    // The control is inside a component inside the placement: retargeted to that component's host at the placement.
    const placement = tag(context(12), '<a data-engage-b-id="outer">x</a>');
    placement.append(host([button]));
    document.body.append(host([placement]));
    await auto(rec);
    span.click();
    placement.querySelector('a')!.click();
    expect(clicks().map((c) => c.attributes)).toEqual([{ b_id: 'inner-buy' }, { b_id: 'outer' }]);
  });

  it('stop() disconnects everything, and the hook stays inert for it', async () => {
    const { rec, calls } = recorder();
    const stop = await auto(rec);
    const first = tag(context(13));
    document.body.append(host([first]));
    await flushMutations();
    expect(observed()).toEqual([first]);
    stop();
    const element = document.createElement('x-after');
    document.body.append(element);
    element.attachShadow({ mode: 'open' }).append(tag(context(14)));
    await flushMutations();
    expect(observed()).toEqual([]);
    view(first, 1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls).toEqual([]);
  });

  it('a mutation batch checks no watched placement but those in the subtrees it names', async () => {
    const { rec } = recorder();
    const placements = Array.from({ length: 50 }, (_, i) => tag(context(i)));
    document.body.append(host(placements.slice(0, 25)), ...placements.slice(25));
    await auto(rec);
    let looks = 0;
    for (const el of placements)
      Object.defineProperty(el, 'isConnected', {
        get: () => (looks++, true),
      });
    // Only what the observer's callback does is counted: the DOM itself may look while it mutates.
    let during = 0;
    const batch = async (change: () => void) => {
      change();
      looks = 0;
      await flushMutations();
      during += looks;
    };
    const other = document.createElement('p');
    await batch(() => document.body.append(other));
    await batch(() => other.remove());
    await batch(() => document.body.firstElementChild!.shadowRoot!.append(document.createElement('p')));
    await batch(() => document.body.firstElementChild!.shadowRoot!.lastElementChild!.remove());
    expect(during).toBe(0);
  });

  it('only looks inside `root` when given one', async () => {
    const { rec } = recorder();
    const mine = document.createElement('section');
    const theirs = document.createElement('section');
    document.body.append(mine, theirs);
    await auto(rec, mine);
    const inMine = document.createElement('x-a');
    const inTheirs = document.createElement('x-b');
    mine.append(inMine);
    theirs.append(inTheirs);
    await flushMutations();
    const a = tag(context(15));
    const b = tag(context(16));
    inMine.attachShadow({ mode: 'open' }).append(a);
    inTheirs.attachShadow({ mode: 'open' }).append(b);
    await flushMutations();
    expect(observed()).toEqual([a]);
  });
});

describe('the attachShadow hook', () => {
  it('is installed once per window and keeps attachShadow as it was: this, arguments, result, exceptions', () => {
    const seen: ShadowRoot[] = [];
    const stops = [onShadowRoot(window, (root) => seen.push(root)), onShadowRoot(window, () => {})];
    const wrapped = Element.prototype.attachShadow;
    expect(wrapped).not.toBe(original);
    stops.push(
      onShadowRoot(window, () => {
        throw new Error('a listener that fails');
      }),
    );
    // Once per window: a third listener did not wrap it again.
    expect(Element.prototype.attachShadow).toBe(wrapped);
    const element = document.createElement('div');
    const root = element.attachShadow({ mode: 'open' });
    expect(root.host).toBe(element);
    expect(element.shadowRoot).toBe(root);
    expect(seen).toEqual([root]);
    // A second root on one element fails as it always did.
    expect(() => element.attachShadow({ mode: 'open' })).toThrow();
    // Closed: never told.
    document.createElement('span').attachShadow({ mode: 'closed' });
    expect(seen).toEqual([root]);
    stops.forEach((stop) => stop());
    document.createElement('p').attachShadow({ mode: 'open' });
    expect(seen).toEqual([root]);
  });

  it('walk visits every element and each open root, at any depth, once', () => {
    const deep = tag(context(1));
    document.body.append(host([document.createElement('i'), host([deep])]), host([document.createElement('b')], 'closed'));
    const nodes: string[] = [];
    const roots: ShadowRoot[] = [];
    const go = (root: ShadowRoot) => (roots.push(root), walk(root, each, go));
    const each = (node: Node) => nodes.push(node.nodeType == 11 ? '#root' : node.nodeName.toLowerCase());
    walk(document.body, each, go);
    expect(nodes).toEqual(['body', 'x-host', '#root', 'i', 'x-host', '#root', 'div', 'button', 'x-host']);
    expect(roots).toHaveLength(2);
  });
});
