// The queue's and delivery's code (durable.ts) is a chunk of its own in a module build: a site's
// bundler splits it off, and the app's first task neither downloads nor evaluates it (issue 51).
// Until it has run, what is recorded is held in memory, and a page going away sends it as beacons
// (create-tracker.ts). The script tag swaps this file for load-durable-script.ts
// (rollup.config.mjs), which loads the same code as a file beside engage.iife.js.
import { NetworkError } from '../errors';
import type { Durable } from './durable';

/** Loads the queue's and delivery's code; rejects when it does not load. */
export const loadDurable = (): Promise<Durable> =>
  import('./durable').then(
    (module) => module.durable,
    (cause: unknown) => {
      throw new NetworkError(`engage-sdk's delivery chunk did not load: ${String(cause)}`, { cause });
    },
  );
