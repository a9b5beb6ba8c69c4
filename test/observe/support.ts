// Shared by the happy-dom suites of observe: a scripted IntersectionObserver (happy-dom has none),
// a recording recorder, placements and experience contexts.
import type { Recorder } from '../../src/tracker/observe';
import type { ExperienceContext } from '../../src/tracker/types';

export class FakeIO {
  static all: FakeIO[] = [];
  targets: Element[] = [];
  disconnected = false;
  constructor(readonly callback: (entries: unknown[]) => void) {
    FakeIO.all.push(this);
  }
  observe(element: Element) {
    this.targets.push(element);
  }
  disconnect() {
    this.disconnected = true;
  }
  unobserve(element: Element) {
    this.targets = this.targets.filter((target) => target !== element);
  }
}

/** Reports `ratio` of `element` visible to its live observer(s); size in px for the large-element rule. */
export function view(element: Element, ratio: number, size = { width: 300, height: 200 }) {
  for (const io of FakeIO.all) {
    if (io.disconnected || !io.targets.includes(element)) continue;
    io.callback([
      {
        target: element,
        isIntersecting: ratio > 0,
        intersectionRatio: ratio,
        intersectionRect: { width: size.width, height: size.height * ratio },
        rootBounds: { width: 1000, height: 800 },
      },
    ]);
  }
}

export function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

export const context = (n = 1): ExperienceContext => ({
  cid: `cid-${n}`,
  experience: `Experience ${n}`,
  svc_locale_id: 'en',
  svc_variation_id: String(n),
  audience_name: 'All',
  audience_id: `aud-${n}`,
  type: 'Web Personalization',
});

export function recorder() {
  const calls: Array<{ action: 'shown' | 'clicked'; context: ExperienceContext; attributes?: Record<string, unknown> | null }> = [];
  const rec: Recorder = {
    shown: (c, a) => (calls.push({ action: 'shown', context: c, attributes: a }), 'uuid'),
    clicked: (c, a) => (calls.push({ action: 'clicked', context: c, attributes: a }), 'uuid'),
  };
  return { rec, calls, shown: () => calls.filter((c) => c.action === 'shown'), clicks: () => calls.filter((c) => c.action === 'clicked') };
}

export const placement = (html = '<button data-engage-b-id="buy"><span>Buy</span></button><p>text</p>') => {
  const div = document.createElement('div');
  div.innerHTML = html;
  document.body.append(div);
  return div;
};

/** Before each test: the scripted observer installed, the tab visible, an empty page, fake timers. */
export function freshPage(vi: { useFakeTimers(): unknown }): void {
  vi.useFakeTimers();
  FakeIO.all = [];
  // A new class per test: observe keeps one observer per document and constructor, so each test
  // gets its own (on a fresh clock) instead of the one an earlier test left.
  (window as unknown as { IntersectionObserver: unknown }).IntersectionObserver = class extends FakeIO {};
  setVisibility('visible');
  document.body.innerHTML = '';
  // happy-dom lays nothing out: every placement a 300×200 box at the top left, painted, on top.
  Element.prototype.getBoundingClientRect = () => ({ left: 0, top: 0, right: 300, bottom: 200, width: 300, height: 200, x: 0, y: 0 }) as DOMRect;
}
