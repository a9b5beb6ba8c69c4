// The inspection mode's UI: an outline and a label over each placement, and a panel of recent
// events and the tracker's state, drawn in a shadow root over the page. It only reads: the
// tracker's lifecycle events (onLifecycle), its state (trackerState), and the page's
// [data-engage-context] elements. It takes no click meant for the page (outlines and labels let
// pointer events through), shifts no layout (one fixed-position host), and leaves with stop().
import { onLifecycle, trackerState } from '../tracker/lifecycle';
import { walk } from '../tracker/shadow-roots';
import type { Tracker } from '../tracker/types';
import { createModel, describeCustomer, describeDeviceClock, describeDrops, describePlacement, type PlacementRow } from './model';
import { adoptStyles } from './styles';

export interface InspectOptions {
  /** Called once when the visitor turns inspection off from the panel (the UI is already gone). */
  onTurnOff?: (() => void) | null;
}

/** Builds an element; text only, never markup. */
function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** The share of `element` inside the viewport, 0 to 1. */
function ratioInView(rect: DOMRect): number {
  const width = Math.min(rect.right, innerWidth) - Math.max(rect.left, 0);
  const height = Math.min(rect.bottom, innerHeight) - Math.max(rect.top, 0);
  const area = rect.width * rect.height;
  return width > 0 && height > 0 && area > 0 ? (width * height) / area : 0;
}

function placementState(row: PlacementRow): string {
  if (row.invalid) return 'invalid';
  if (row.countedAt !== undefined) return row.uuid ? 'counted' : 'refused';
  return row.since !== undefined ? 'viewing' : 'waiting';
}

/**
 * Shows, on the page, why each placement did or did not count, and what became of every event:
 * for integrators, in development or with `?engage-inspect` on a script-tag page. Never throws.
 *
 * @param tracker a tracker from `createTracker`, or the script tag's `Engage`
 * @returns a function that removes everything it added
 * @example
 * if (import.meta.env.DEV) import('engage-sdk/inspect').then(({ inspect }) => inspect(tracker));
 */
export function inspect(tracker: Tracker, options?: InspectOptions | null): () => void {
  if (typeof document !== 'object' || !trackerState(tracker)) return () => {};
  const model = createModel();
  const host = document.createElement('engage-inspect');
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root);

  const layer = h('div', { class: 'layer' });
  const summary = h('dl');
  const rows = h('tbody');
  const close = h('button', { type: 'button', 'aria-keyshortcuts': 'Escape' }, 'Close');
  const off = h('button', { type: 'button' }, 'Turn off');
  const panel = h(
    'section',
    { class: 'panel', role: 'region', 'aria-label': 'engage-sdk inspector' },
    h('header', {}, h('h2', {}, 'engage-sdk inspector'), close, off),
    summary,
    h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'event'), h('th', {}, 'experience'), h('th', {}, 'UUID'), h('th', {}, 'state'))), rows),
  );
  const reopen = h('button', { type: 'button', class: 'reopen', hidden: '' }, 'engage-sdk inspector');
  root.append(layer, panel, reopen);
  const outlines = new Map<Element, { box: HTMLDivElement; label: HTMLDivElement; text: string }>();

  const show = (open: boolean) => {
    const focused = root.activeElement;
    panel.hidden = !open;
    reopen.hidden = open;
    if (focused) (open ? close : reopen).focus();
  };
  close.addEventListener('click', () => show(false));
  reopen.addEventListener('click', () => show(true));
  const onKey = (event: KeyboardEvent) => event.key === 'Escape' && !panel.hidden && show(false);
  addEventListener('keydown', onKey);

  const unsubscribe = onLifecycle(tracker, (event) => model.take(event));
  let frame = 0;
  let frames = 0;
  // The page's open shadow roots (web components), where placements may be too.
  let roots: ShadowRoot[] = [];
  let summaryText = '';
  let rowsText = '';

  function render(): void {
    frame = requestAnimationFrame(render);
    try {
      draw();
    } catch {
      // A page in an odd state (an element gone mid-frame) costs one frame, never the page.
    }
  }

  function draw(): void {
    const state = trackerState(tracker);
    if (state) model.state(state);
    // Found again twice a second, not every frame: finding them is a walk of the whole page.
    if (!(frames++ % 30)) {
      roots = [];
      const enter = (shadow: ShadowRoot) => (roots.push(shadow), walk(shadow, () => {}, enter));
      walk(document, () => {}, enter);
    }
    for (const at of [document, ...roots]) at.querySelectorAll('[data-engage-context]').forEach((element) => model.found(element));
    const now = Date.now();
    for (const [element, row] of model.placements) {
      let outline = outlines.get(element);
      if (!element.isConnected) {
        outline?.box.remove();
        outlines.delete(element);
        model.placements.delete(element);
        continue;
      }
      if (!outline) {
        const label = h('div', { class: 'label' });
        outline = { box: h('div', { class: 'outline' }, label), label, text: '' };
        outlines.set(element, outline);
        layer.append(outline.box);
      }
      const rect = element.getBoundingClientRect();
      const style = outline.box.style;
      style.setProperty('top', `${rect.top}px`);
      style.setProperty('left', `${rect.left}px`);
      style.setProperty('width', `${rect.width}px`);
      style.setProperty('height', `${rect.height}px`);
      // A placement scrolled half out keeps its label on screen.
      outline.label.style.setProperty('top', `${Math.max(0, Math.min(-rect.top, rect.height - 40))}px`);
      const { title, lines } = describePlacement(row, ratioInView(rect), state, model.events, now);
      const text = [title, ...lines].join('\n');
      if (text !== outline.text) {
        outline.text = text;
        outline.box.dataset.state = placementState(row);
        outline.box.dataset.experience = row.context?.experience ?? '';
        outline.label.replaceChildren(h('strong', {}, title), ...lines.map((line) => h('div', {}, line)));
      }
    }
    for (const [element, outline] of outlines) {
      if (model.placements.has(element)) continue;
      outline.box.remove();
      outlines.delete(element);
    }

    const answer = model.lastAnswer;
    // The panel's lines, by name (in this order): each one's `data-fact` is its name.
    const facts: Record<string, string> = {
      endpoint: state?.endpoint ?? '?',
      'last answer': answer ? `${answer.status || 'no answer'} · ${answer.message} · ${new Date(answer.at).toLocaleTimeString('en-GB')}` : 'none yet',
      queue: `${model.queueLength()} event(s) waiting`,
      drops: describeDrops(model.drops),
      clock: describeDeviceClock(model.deviceClockMs),
      visitor:
        model.crawler === undefined
          ? 'not known yet: no delivery answered'
          : model.crawler
            ? 'a crawler to the proxy (by its user agent): its events are answered, not counted'
            : 'a person: its events are counted',
      customer: describeCustomer(state?.customerId || undefined, model.queueLength()),
      consent:
        state?.consent === 'pending'
          ? 'waiting for consent: events are held in memory, nothing is stored or sent'
          : state?.optedOut
            ? 'opted out: nothing is recorded'
            : 'given',
    };
    const nextSummary = JSON.stringify(facts);
    if (nextSummary !== summaryText) {
      summaryText = nextSummary;
      summary.replaceChildren(...Object.entries(facts).flatMap(([name, value]) => [h('dt', {}, name), h('dd', { 'data-fact': name }, value)]));
    }
    const list = [...model.events.values()].reverse();
    const nextRows = JSON.stringify(list);
    if (nextRows !== rowsText) {
      rowsText = nextRows;
      rows.replaceChildren(
        ...list.map((event) =>
          h(
            'tr',
            { 'data-uuid': event.uuid },
            h('td', {}, event.action === 'shown' ? 'impression' : 'click'),
            h('td', {}, event.experience),
            h('td', {}, h('code', { title: event.uuid }, event.uuid.slice(0, 8))),
            h('td', { 'data-state': event.state }, event.state + (event.detail ? `: ${event.detail}` : '')),
          ),
        ),
      );
    }
  }

  // Appended to <html>, not <body>: a fixed, zero-size host out of the page's flow and selectors.
  document.documentElement.append(host);
  render();

  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    cancelAnimationFrame(frame);
    unsubscribe();
    removeEventListener('keydown', onKey);
    host.remove();
  };
  off.addEventListener('click', () => {
    stop();
    try {
      options?.onTurnOff?.();
    } catch {
      // The page's callback: its failure is its own.
    }
  });
  return stop;
}
