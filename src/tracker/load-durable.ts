// The queue's and delivery's code (durable.ts) is a chunk of its own in a module build: a site's
// bundler splits it off, and the app's first task neither downloads nor evaluates it (issue 51).
// Until it has run, what is recorded is held in memory, and a page going away sends it
// (create-tracker.ts). The script tag swaps this file for load-durable-script.ts
// (rollup.config.mjs), which loads the same code as a file beside engage.iife.js.
import { NetworkError } from '../errors';
import type { Durable } from './durable';
import { later } from './later';

/** Loads the queue's and delivery's code, from a later task; rejects when it does not load. */
export const loadDurable = (): Promise<Durable> =>
  // Not in the task that created the tracker: starting the request made it 17-44 ms longer (module
  // bundle at 4× CPU, two runs of `npm run bench:load`), as adding the script tag's element did.
  new Promise<void>((resolve) => later(resolve))
    .then(() => import('./durable'))
    .then(
      (module) => module.durable,
      (cause: unknown) => {
        throw new NetworkError(`engage-sdk's delivery chunk did not load: ${String(cause)}`, { cause });
      },
    );
