// The script tag's delivery code is a file of its own, dist/engage.delivery.js (durable.ts), loaded
// from beside engage.iife.js in the task after the tracker is created (issue 51 §3: the first file neither
// carries nor evaluates it). Until it has run, what is recorded is held in memory as before the
// start, and a page going away sends it as beacons (create-tracker.ts). rollup.config.mjs puts
// this file in the script tag's build in place of load-durable.ts.
import { NetworkError } from '../errors';
import type { Durable } from './durable';
import { later } from './later';

const doc = globalThis.document as Document | undefined;
/** engage.iife.js's own element, read while it runs. */
export const script = (doc?.currentScript ?? doc?.querySelector('script[data-endpoint]')) as HTMLScriptElement | null | undefined;

/**
 * Adds the script `name` from beside engage.iife.js, with its nonce: a strict CSP's `'self'`,
 * `'strict-dynamic'` or nonce lets it run as it let engage.iife.js.
 */
export const sibling = (name: string) =>
  document.head.appendChild(Object.assign(document.createElement('script'), { src: new URL(name, script!.src), nonce: script!.nonce }));

let loading: Promise<Durable> | undefined;

/** Loads engage.delivery.js, once per page; rejects when it does not load. */
export const loadDurable = (): Promise<Durable> =>
  (loading ??= new Promise((resolve, reject) => {
    const settle = () => {
      const code = (window as unknown as { Engage: { _durable?: Durable } }).Engage._durable;
      if (code) resolve(code);
      else reject(new NetworkError(`engage.delivery.js did not load from beside ${script?.src}: serve dist/engage.delivery.js next to engage.iife.js`));
    };
    // In a later task: adding a script element took a fifth of the tag's evaluation at 4× CPU.
    later(() => {
      try {
        const added = sibling('engage.delivery.js');
        added.onload = added.onerror = settle;
      } catch {
        // No element to load beside (engage.iife.js's code run some other way than by its tag).
        settle();
      }
    });
  }));
