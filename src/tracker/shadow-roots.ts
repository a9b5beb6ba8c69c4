// Finding open shadow roots (issue 52), for autoObserve and the inspector: a document-level
// MutationObserver and querySelectorAll see nothing inside a web component's shadow root.
//
// Roots present at start are found by one walk (`walk`); roots attached later by a hook on
// `Element.prototype.attachShadow` (`onShadowRoot`). The hook, not a scan when a custom element is
// defined or connected: it costs nothing per mutation, sees every component library and every
// vanilla `attachShadow` call, including an element upgraded in place (no mutation record for that),
// and a scan would still have to find which of the defined element's instances hold roots. A
// declarative shadow root (`<template shadowrootmode="open">`) is attached by the parser, without
// the method: the first walk finds those present at start, and a walk of each subtree a
// MutationObserver reports added finds those parsed later.
//
// Closed roots are never seen from outside (the hook, which could, skips them): a closed root is
// its component's to declare, with `observe` on its own placement.

import { later } from './later';

/** Listeners of each window's hook, by that window's Element.prototype: the hook is installed once per window. */
const hooks = /* @__PURE__ */ new WeakMap<object, Set<(root: ShadowRoot) => void>>();

/**
 * Calls `found` with each open shadow root attached in `win` from now on, inside `attachShadow`
 * itself (the root still empty, so whatever the component renders into it arrives later, as
 * mutations). `attachShadow` is wrapped once per window and keeps its behaviour: the same `this`,
 * arguments, result and exceptions; a throwing listener is swallowed.
 *
 * @returns a function that removes `found` (the wrapper stays, inert without listeners)
 */
export function onShadowRoot(win: Window & typeof globalThis, found: (root: ShadowRoot) => void): () => void {
  const proto = win.Element.prototype;
  let listeners = hooks.get(proto);
  // Called through with the element as `this`: apply below.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const attach = proto.attachShadow;
  if (!listeners && attach) {
    const all = (listeners = new Set());
    hooks.set(proto, all);
    proto.attachShadow = function (this: Element) {
      // eslint-disable-next-line prefer-rest-params -- every argument, as given, whatever a later spec adds
      const root = attach.apply(this, arguments as unknown as [ShadowRootInit]);
      if (root.mode == 'open')
        all.forEach((listener) => {
          try {
            listener(root);
          } catch {
            // The page's attachShadow goes on whatever a listener does.
          }
        });
      return root;
    };
  }
  listeners?.add(found);
  return () => listeners?.delete(found);
}

/**
 * Visits `node` and every element under it, into open shadow roots at any depth: `each` for every
 * node (`node` itself, which may be a document or a shadow root, then each element), `root` for
 * every open shadow root met, before its elements are visited (`root` decides whether to go in, by
 * calling `walk` itself). In one task: the elements there are at the call, a static list, as
 * walkInSlices goes through them.
 */
export function walk(node: ParentNode, each: (node: Node) => void, root: (root: ShadowRoot) => void): void {
  visit(node, each, root);
  node.querySelectorAll('*').forEach((at) => visit(at, each, root));
}

/** One step of either walk: `each` on the node, then `root` on its open shadow root, if any. */
function visit(at: Node, each: (node: Node) => void, root: (root: ShadowRoot) => void): void {
  each(at);
  const shadow = (at as Element).shadowRoot;
  if (shadow) root(shadow);
}

/**
 * `walk`, in slices of about 10 ms, each a task of its own (the first in the caller's): at 4× CPU
 * a placement costs ~0.15 ms to start, and a listing of 1,000, found by the first walk or
 * inserted at once, was one task of 80-180 ms (issue 51 §2). Every tree given (the page at
 * start, the subtrees a MutationObserver's batch reports added, each shadow root met) joins one
 * queue: its root is visited, then the elements under it, as a static list of those there were
 * then. Not a TreeWalker paused between slices: on a node the page then moves forward (a
 * carousel's slide) it would never come back for what lay between. What the page adds and
 * removes meanwhile is the caller's MutationObserver's to see, and `each` must skip what is no
 * longer in the page, or what it has.
 *
 * @returns a function that walks the trees of `nodes` after what is still to walk (in the
 *   caller's task while its slice lasts), and, called with none, stops for good
 */
export function walkInSlices(each: (node: Node) => void, root: (root: ShadowRoot) => void): (nodes?: Node[]) => void {
  // NodeLists, not arrays: they hold the elements, not their JS wrappers, which are made as each
  // is visited and dropped after, as a walk in one task does. Wrappers kept over a few tasks
  // outlive a scavenge, and Blink then keeps them as long as their element (+31 KB of heap at
  // 1,000 placements).
  let todo: Array<ArrayLike<Node>> = [];
  let i = 0;
  // A slice is running or to come: a tree given now (a shadow root met) joins the queue.
  let busy: unknown;
  const slice = () => {
    busy = 1;
    for (const end = performance.now() + 10; todo[0] && performance.now() < end;) {
      const list = todo[0];
      if (i == list.length) {
        todo.shift();
        i = 0;
      } else {
        const node = list[i++]!;
        try {
          visit(node, each, root);
        } catch {
          // One node's failure stops neither the walk (nothing would be walked again) nor the page.
        }
        // A tree given (an array's): the elements under it, as they are now, are walked later.
        if (Array.isArray(list)) todo.push((node as ParentNode).querySelectorAll('*'));
      }
    }
    busy = todo[0] && later(slice);
  };
  return (nodes) => {
    // A slice to come, if any, then finds nothing.
    if (!nodes) return void (todo = []);
    todo.push(nodes);
    if (!busy) slice();
  };
}
