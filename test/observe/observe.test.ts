// @vitest-environment happy-dom
// Viewability and click rules with a scripted IntersectionObserver (happy-dom has none) and fake
// timers; the real observer is proven in Chromium by test/e2e/demo.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { autoObserve, impressionKey, observe } from '../../src/tracker/observe';
import type { ExperienceContext } from '../../src/tracker/types';
import { context, FakeIO, freshPage, placement, recorder, setVisibility, view } from './support';

beforeEach(() => freshPage(vi));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('observe: impressions', () => {
  it('counts SHOWN only after one continuous second at 50% or more', () => {
    const { rec, shown } = recorder();
    const el = placement();
    observe(rec, el, context());
    view(el, 0.5);
    vi.advanceTimersByTime(999);
    expect(shown()).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(shown()).toEqual([{ action: 'shown', context: context(), attributes: undefined }]);
  });

  it('lays its looks from the first: the second is counted on the tenth tick after it, not the eleventh', () => {
    // In a browser the clock moves on between setting a timer and what comes after it (here 5 ms):
    // a first look taken after the timer was set found the tenth tick 995 ms after it.
    const setInterval = globalThis.setInterval;
    vi.stubGlobal('setInterval', (...args: Parameters<typeof setInterval>) => {
      const timer = setInterval(...args);
      vi.advanceTimersByTime(5);
      return timer;
    });
    const { rec, shown } = recorder();
    const el = placement();
    observe(rec, el, context());
    view(el, 1);
    vi.advanceTimersByTime(995);
    expect(shown()).toHaveLength(1);
  });

  it('counts nothing for a placement scrolled past quickly', () => {
    const { rec, shown } = recorder();
    const el = placement();
    observe(rec, el, context());
    view(el, 1);
    vi.advanceTimersByTime(600);
    view(el, 0);
    vi.advanceTimersByTime(10_000);
    expect(shown()).toHaveLength(0);
  });

  it('restarts the second when visibility drops below half, and ignores 49%', () => {
    const { rec, shown } = recorder();
    const el = placement();
    observe(rec, el, context());
    view(el, 0.75);
    vi.advanceTimersByTime(800);
    view(el, 0.49);
    vi.advanceTimersByTime(5_000);
    expect(shown()).toHaveLength(0);
    view(el, 0.6);
    vi.advanceTimersByTime(999);
    expect(shown()).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(shown()).toHaveLength(1);
  });

  it('does not count while the tab is hidden, and needs a full second after it shows again', () => {
    const { rec, shown } = recorder();
    const el = placement();
    observe(rec, el, context());
    view(el, 1);
    vi.advanceTimersByTime(900);
    setVisibility('hidden');
    vi.advanceTimersByTime(10_000);
    expect(shown()).toHaveLength(0);
    setVisibility('visible');
    vi.advanceTimersByTime(999);
    expect(shown()).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(shown()).toHaveLength(1);
  });

  it('starts no timer when the page loads in a background tab', () => {
    setVisibility('hidden');
    const { rec, shown } = recorder();
    const el = placement();
    observe(rec, el, context());
    view(el, 1);
    vi.advanceTimersByTime(5_000);
    expect(shown()).toHaveLength(0);
  });

  it('counts once per page view, then stops watching it: no observer target, no timer', () => {
    const { rec, shown } = recorder();
    const el = placement();
    observe(rec, el, context());
    view(el, 1);
    vi.advanceTimersByTime(1_000);
    view(el, 0);
    view(el, 1);
    vi.advanceTimersByTime(5_000);
    expect(shown()).toHaveLength(1);
    expect(FakeIO.all[0]!.targets).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a second node with the same context (a re-render) is not a second impression; another context is', () => {
    const { rec, shown } = recorder();
    const first = placement();
    observe(rec, first, context(1));
    view(first, 1);
    vi.advanceTimersByTime(1_000);
    const again = placement();
    observe(rec, again, context(1));
    view(again, 1);
    vi.advanceTimersByTime(5_000);
    expect(shown()).toHaveLength(1);
    const other = placement();
    observe(rec, other, context(2));
    view(other, 1);
    vi.advanceTimersByTime(1_000);
    expect(shown().map((c) => c.context.cid)).toEqual(['cid-1', 'cid-2']);
  });

  it('two contexts whose keys share a hash are two impressions: the key itself decides', () => {
    // 'Aa' and 'BB' hash alike under a multiplier of 31 (Java's String.hashCode collides on them),
    // and so does every key that differs only there: the page view's hash set says "maybe", the key "no".
    const { rec, shown } = recorder();
    const first = placement();
    observe(rec, first, { ...context(1), cid: 'Aa' });
    view(first, 1);
    vi.advanceTimersByTime(1_000);
    const second = placement();
    observe(rec, second, { ...context(1), cid: 'BB' });
    view(second, 1);
    vi.advanceTimersByTime(1_000);
    expect(shown().map((c) => c.context.cid)).toEqual(['Aa', 'BB']);
  });

  it('a placement larger than the viewport counts when it covers half the viewport', () => {
    const { rec, shown } = recorder();
    const el = placement();
    observe(rec, el, context());
    // 30% of a 1000×2000 element = 1000×600 px, 75% of the 1000×800 viewport.
    view(el, 0.3, { width: 1000, height: 2000 });
    vi.advanceTimersByTime(1_000);
    expect(shown()).toHaveLength(1);
  });

  it('the rule is fixed: 50% (49% is not enough) for 1,000 ms (999 is not enough)', () => {
    const { rec, shown } = recorder();
    const el = placement();
    observe(rec, el, context());
    view(el, 0.49);
    vi.advanceTimersByTime(3_000);
    expect(shown()).toHaveLength(0);
    view(el, 0.5);
    vi.advanceTimersByTime(999);
    expect(shown()).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(shown()).toHaveLength(1);
  });

  it('stop() cancels a pending impression and clicks', () => {
    const { rec, calls } = recorder();
    const el = placement();
    const stop = observe(rec, el, context());
    view(el, 1);
    vi.advanceTimersByTime(500);
    stop();
    stop();
    vi.advanceTimersByTime(5_000);
    el.querySelector('button')!.click();
    expect(calls).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('without IntersectionObserver: reports it, counts no impression, still counts clicks', () => {
    delete (window as unknown as { IntersectionObserver?: unknown }).IntersectionObserver;
    const errors: Error[] = [];
    const { rec, calls } = recorder();
    const el = placement();
    observe(rec, el, context(), { onError: (e) => errors.push(e) });
    el.querySelector('button')!.click();
    expect(errors.map((e) => e.message)).toEqual(['IntersectionObserver: is not available']);
    expect(calls.map((c) => c.action)).toEqual(['clicked']);
  });

  it('bad element: reported, not thrown', () => {
    const errors: Array<{ field: string }> = [];
    const { rec } = recorder();
    const stop = observe(rec, null as unknown as Element, context(), { onError: (e) => errors.push(e as never) });
    expect(() => stop()).not.toThrow();
    expect(errors[0]!.field).toBe('element');
  });
});

describe('observe: null and undefined mean "not given"', () => {
  it('reads the context from data-engage-context when it is null or undefined; null options are the defaults', () => {
    for (const given of [null, undefined]) {
      const { rec, shown } = recorder();
      const el = placement();
      el.setAttribute('data-engage-context', JSON.stringify(context(5)));
      observe(rec, el, given, null);
      view(el, 1);
      vi.advanceTimersByTime(1_000);
      expect(shown()).toEqual([{ action: 'shown', context: context(5), attributes: undefined }]);
    }
  });

  it('no context and no readable attribute: reported naming the field and the rule, nothing observed', () => {
    const errors: Array<{ field: string; rule: string }> = [];
    const { rec, calls } = recorder();
    const el = placement();
    const stop = observe(rec, el, undefined, { onError: (e) => errors.push(e as never) });
    el.setAttribute('data-engage-context', '{oops');
    observe(rec, el, null, { onError: (e) => errors.push(e as never) });
    el.querySelector('button')!.click();
    expect(() => stop()).not.toThrow();
    expect(errors).toMatchObject([
      { field: 'data-engage-context', rule: 'must be the experience context as a JSON object' },
      { field: 'data-engage-context', rule: 'must be the experience context as a JSON object' },
    ]);
    expect(calls).toEqual([]);
  });

  it('without onError, bad input is a console warning, not a throw', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { rec } = recorder();
    expect(() => observe(rec, null as unknown as Element)).not.toThrow();
    expect(warn).toHaveBeenCalledWith('engage-sdk: element: must be a DOM Element');
    warn.mockRestore();
  });

  it('autoObserve takes null root and options as document and the defaults', async () => {
    const { rec, shown } = recorder();
    const el = document.createElement('div');
    el.setAttribute('data-engage-context', JSON.stringify(context(6)));
    document.body.append(el);
    autoObserve(rec, null, null);
    // The page is scanned in a later task (issue 51: start-up).
    await vi.advanceTimersByTimeAsync(0);
    view(el, 1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(shown().map((c) => c.context.cid)).toEqual(['cid-6']);
  });
});

describe('observe: clicks', () => {
  it('records every click inside, with b_id from the nearest data-engage-b-id within the element', () => {
    const outer = placement(
      '<section data-engage-b-id="outer"><div id="p"><button data-engage-b-id="buy"><span>Buy</span></button><a href="#x">More</a></div></section>',
    );
    const el = outer.querySelector('#p')!;
    const { rec, clicks } = recorder();
    observe(rec, el, context());
    (el.querySelector('span') as HTMLElement).click();
    (el.querySelector('a') as HTMLElement).click();
    expect(clicks()).toEqual([
      { action: 'clicked', context: context(), attributes: { b_id: 'buy' } },
      // No attribute up to the element: no b_id (an outer placement's attribute is not ours).
      { action: 'clicked', context: context(), attributes: undefined },
    ]);
  });

  it('counts the middle button (auxclick, button 1) as a click, once; not the right button', () => {
    const el = placement('<div><a href="#p" data-engage-b-id="open">Open</a></div>');
    const { rec, clicks } = recorder();
    observe(rec, el, context());
    const link = el.querySelector('a')!;
    const press = (type: string, button: number) => link.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, button }));
    press('auxclick', 1); // a middle click: browsers fire auxclick alone for it
    press('auxclick', 2); // a right click's auxclick
    press('contextmenu', 2);
    press('click', 0);
    expect(clicks()).toEqual([
      { action: 'clicked', context: context(), attributes: { b_id: 'open' } },
      { action: 'clicked', context: context(), attributes: { b_id: 'open' } },
    ]);
  });

  it('a throwing recorder does not break the page', () => {
    const el = placement();
    observe(
      {
        shown: () => {
          throw new Error('boom');
        },
        clicked: () => {
          throw new Error('boom');
        },
      },
      el,
      context(),
    );
    expect(() => el.querySelector('button')!.click()).not.toThrow();
    view(el, 1);
    expect(() => vi.advanceTimersByTime(1_000)).not.toThrow();
  });
});

describe('autoObserve', () => {
  const tag = (c: ExperienceContext | string, inner = '<button data-engage-b-id="go">Go</button>') => {
    const div = document.createElement('div');
    div.setAttribute('data-engage-context', typeof c === 'string' ? c : JSON.stringify(c));
    div.innerHTML = inner;
    return div;
  };
  const flushMutations = () => vi.advanceTimersByTimeAsync(0);

  it('observes elements present at start and added later', async () => {
    const { rec, shown, clicks } = recorder();
    const first = tag(context(1));
    document.body.append(first);
    autoObserve(rec, document);
    const later = document.createElement('section');
    later.append(tag(context(2)));
    document.body.append(later);
    await flushMutations();
    const second = later.firstElementChild!;
    view(first, 1);
    view(second, 1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(
      shown()
        .map((c) => c.context.cid)
        .sort(),
    ).toEqual(['cid-1', 'cid-2']);
    (second.querySelector('button') as HTMLElement).click();
    expect(clicks()).toEqual([{ action: 'clicked', context: context(2), attributes: { b_id: 'go' } }]);
  });

  it('a re-rendered placement (node replaced, same context) is one impression', async () => {
    const { rec, shown } = recorder();
    const first = tag(context(1));
    document.body.append(first);
    autoObserve(rec, document);
    view(first, 1);
    await vi.advanceTimersByTimeAsync(1_000);
    const replacement = tag(context(1), '<p>re-rendered</p>');
    first.replaceWith(replacement);
    await flushMutations();
    view(replacement, 1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(shown()).toHaveLength(1);
  });

  it('unreadable JSON is reported with the attribute name and skipped; others still work', async () => {
    const errors: Array<{ field: string; rule: string }> = [];
    const { rec, shown } = recorder();
    document.body.append(tag('{not json'), tag('[1,2]'));
    const good = tag(context(3));
    document.body.append(good);
    expect(() => autoObserve(rec, document, { onError: (e) => errors.push(e as never) })).not.toThrow();
    // The page is scanned in a later task (issue 51: start-up).
    expect(errors).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ field: 'data-engage-context', rule: 'must be the experience context as a JSON object' });
    view(good, 1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(shown()).toHaveLength(1);
  });

  it('a changed context attribute is observed anew; removed elements stop', async () => {
    const { rec, shown, clicks } = recorder();
    const el = tag(context(1));
    document.body.append(el);
    autoObserve(rec, document);
    el.setAttribute('data-engage-context', JSON.stringify(context(4)));
    await flushMutations();
    view(el, 1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(shown().map((c) => c.context.cid)).toEqual(['cid-4']);
    const button = el.querySelector('button') as HTMLElement;
    el.remove();
    await flushMutations();
    button.click();
    expect(clicks()).toHaveLength(0);
  });

  it('stop() disconnects everything', async () => {
    const { rec, calls } = recorder();
    const el = tag(context(1));
    document.body.append(el);
    const stop = autoObserve(rec, document);
    stop();
    document.body.append(tag(context(2)));
    await flushMutations();
    view(el, 1);
    await vi.advanceTimersByTimeAsync(2_000);
    (el.querySelector('button') as HTMLElement).click();
    expect(calls).toHaveLength(0);
  });

  it("does nothing in the caller's task (issue 51 §2), and a stop before its start leaves nothing started", async () => {
    const Original = window.MutationObserver;
    let made = 0;
    window.MutationObserver = class extends Original {
      constructor(callback: MutationCallback) {
        super(callback);
        made++;
      }
    };
    try {
      const { rec, shown } = recorder();
      const stop = autoObserve(rec);
      expect(made).toBe(0);
      await flushMutations();
      expect(made).toBe(1);
      stop();

      const early = autoObserve(rec);
      early();
      await flushMutations();
      expect(made).toBe(1);
      const el = tag(context(8));
      document.body.append(el);
      await flushMutations();
      view(el, 1);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(shown()).toHaveLength(0);
    } finally {
      window.MutationObserver = Original;
    }
  });

  describe('the first walk, in slices (issue 51 §2)', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });
    // The clock each slice reads moves 1 ms per read: a slice of 10 ms goes through a few elements.
    const slowClock = () => {
      let now = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => now++);
    };
    const listing = (n: number) => Array.from({ length: n }, (_, i) => document.body.appendChild(tag(context(i + 1))));
    const watched = () => FakeIO.all.flatMap((io) => io.targets).length;
    /** Runs the slices still to come (a 0 ms timeout set in a fake timer runs 1 ms later). */
    const slices = async () => {
      for (let i = 0; i < 1_000 && vi.getTimerCount(); i++) await vi.advanceTimersByTimeAsync(1);
    };

    it('goes through a large page a few elements a task, and watches every placement in the end', async () => {
      const { rec } = recorder();
      listing(40);
      slowClock();
      autoObserve(rec, document);
      await vi.advanceTimersToNextTimerAsync();
      const first = watched();
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThan(10);
      await vi.advanceTimersToNextTimerAsync();
      expect(watched()).toBeGreaterThan(first);
      expect(watched()).toBeLessThan(40);
      await slices();
      expect(watched()).toBe(40);
    });

    it('a placement the page moves or removes between slices: the rest are all found, the removed one is not watched', async () => {
      const { rec } = recorder();
      const tiles = listing(40);
      slowClock();
      autoObserve(rec, document);
      await vi.advanceTimersToNextTimerAsync();
      const done = watched();
      // Where the walk goes on from (the last one it watched, or the next) moves to the end, as a
      // carousel moves its first slide; a later one is removed.
      document.body.append(tiles[done - 1]!, tiles[done]!);
      tiles[30]!.remove();
      await slices();
      const targets = FakeIO.all.flatMap((io) => io.targets);
      expect(targets).toHaveLength(39);
      expect(new Set(targets)).toEqual(new Set(tiles.filter((tile) => tile !== tiles[30])));
    });

    it('a listing inserted at once after the start: a few placements in the task that inserted it, every one in the end', async () => {
      const { rec } = recorder();
      autoObserve(rec, document);
      await flushMutations();
      slowClock();
      // One batch of 40 insertions, as a framework's commit or a "show all" makes.
      const tiles = listing(40);
      await Promise.resolve();
      const first = watched();
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThan(10);
      await slices();
      expect(new Set(FakeIO.all.flatMap((io) => io.targets))).toEqual(new Set(tiles));
    });

    it('an element whose start throws: the rest of its batch, and every later one, are still watched', async () => {
      const { rec } = recorder();
      autoObserve(rec, document);
      await flushMutations();
      const [broken, ...rest] = [1, 2, 3].map((i) => tag(context(i)));
      vi.spyOn(FakeIO.prototype, 'observe').mockImplementation(function (this: FakeIO, element: Element) {
        if (element === broken) throw new Error('observe failed');
        this.targets.push(element);
      });
      document.body.append(broken!, ...rest);
      await flushMutations();
      const later = document.body.appendChild(tag(context(4)));
      await flushMutations();
      expect(new Set(FakeIO.all.flatMap((io) => io.targets))).toEqual(new Set([...rest, later]));
    });

    it('a stop between slices stops the rest', async () => {
      const { rec } = recorder();
      listing(40);
      slowClock();
      const stop = autoObserve(rec, document);
      await vi.advanceTimersToNextTimerAsync();
      stop();
      await vi.runAllTimersAsync();
      expect(watched()).toBe(0);
    });
  });

  it('impressionKey: cid, experience, variation and audience', () => {
    expect(impressionKey(context(7))).toBe('cid-7|Experience 7|7|aud-7');
  });
});

describe('observe: what a person could see (issue 46)', () => {
  const seenAfter = (el: Element, shown: () => unknown[], change: () => void) => {
    view(el, 1);
    vi.advanceTimersByTime(3_000);
    expect(shown()).toHaveLength(0);
    change();
    vi.advanceTimersByTime(900);
    expect(shown()).toHaveLength(0);
    vi.advanceTimersByTime(200);
    expect(shown()).toHaveLength(1);
  };

  it('every placement shares one IntersectionObserver, and one timer only while some are in view', () => {
    const { rec, shown } = recorder();
    const els = Array.from({ length: 100 }, (_, i) => {
      const el = placement();
      observe(rec, el, context(i));
      return el;
    });
    expect(FakeIO.all).toHaveLength(1);
    expect(FakeIO.all[0]!.targets).toHaveLength(100);
    expect(vi.getTimerCount()).toBe(0);
    els.slice(0, 10).forEach((el) => view(el, 1));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(shown()).toHaveLength(10);
    // Counted placements are no longer observed; nothing in view, no timer.
    expect(FakeIO.all[0]!.targets).toHaveLength(90);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('0×0 (an intersecting zero-area box has ratio 1): nothing until it has an area, then a second', () => {
    const { rec, shown } = recorder();
    const el = placement();
    const box = { left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0, x: 0, y: 0 };
    el.getBoundingClientRect = () => box as DOMRect;
    observe(rec, el, context());
    seenAfter(el, shown, () => Object.assign(box, { right: 300, bottom: 200, width: 300, height: 200 }));
  });

  it('opacity 0 on it or an ancestor, visibility hidden: nothing until painted, then a second', () => {
    for (const [style, on] of [
      ['opacity', 'self'],
      ['opacity', 'parent'],
      ['visibility', 'self'],
    ] as const) {
      const { rec, shown } = recorder();
      const el = placement();
      const target = on === 'self' ? el : document.body;
      target.style.setProperty(style, style === 'opacity' ? '0' : 'hidden');
      observe(rec, el, context());
      seenAfter(el, shown, () => target.style.removeProperty(style));
      el.remove();
    }
  });

  it('covered: counts only with at least half of it uncovered (4 of 9 points covered, not 5), for a full second uncovered', () => {
    const { rec, shown } = recorder();
    const el = placement();
    const cover = placement();
    // The placement is 300×200 at the top left (freshPage): its grid points are x 50/150/250, y 33/100/167.
    const shapes = {
      all: () => true,
      // A third (the left column): the centre is uncovered, which answers alone.
      third: (x: number) => x < 100,
      // The top-left 2×2 points, the centre among them: 5 of 9 uncovered, it counts.
      four: (x: number, y: number) => x < 200 && y < 133,
      // And one more point: 4 of 9 uncovered, it does not.
      five: (x: number, y: number) => (x < 200 && y < 133) || (x < 100 && y >= 133),
      twoThirds: (x: number) => x < 200,
    };
    let shape: (x: number, y: number) => boolean = shapes.all;
    document.elementFromPoint = (x, y) => (shape(x, y) ? cover : el);
    observe(rec, el, context());
    view(el, 1);
    for (const covered of [shapes.all, shapes.five, shapes.twoThirds]) {
      shape = covered;
      vi.advanceTimersByTime(2_000);
      expect(shown()).toHaveLength(0);
    }
    shape = shapes.four;
    vi.advanceTimersByTime(500);
    // Covered again halfway through the second: it starts over.
    shape = shapes.all;
    vi.advanceTimersByTime(300);
    // Then 4 points covered, then a third: both seen, so one continuous second.
    shape = shapes.four;
    vi.advanceTimersByTime(500);
    shape = shapes.third;
    vi.advanceTimersByTime(400);
    expect(shown()).toHaveLength(0);
    vi.advanceTimersByTime(200);
    expect(shown()).toHaveLength(1);
    delete (document as { elementFromPoint?: unknown }).elementFromPoint;
  });

  it('a prerendered page counts nothing until prerenderingchange, then after a second', () => {
    const { rec, shown } = recorder();
    const el = placement();
    Object.defineProperty(document, 'prerendering', { value: true, configurable: true });
    try {
      observe(rec, el, context());
      seenAfter(el, shown, () => {
        Object.defineProperty(document, 'prerendering', { value: false, configurable: true });
        document.dispatchEvent(new Event('prerenderingchange'));
      });
    } finally {
      delete (document as { prerendering?: boolean }).prerendering;
    }
  });
});
