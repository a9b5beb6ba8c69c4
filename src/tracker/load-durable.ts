// A module build imports the queue and delivery with the tracker (a site's bundler splits its app
// as it likes). The script tag swaps this file for load-durable-script.ts (rollup.config.mjs),
// which loads them as a file of their own.
export { backgroundSync } from './background-sync';
export { createDelivery } from './delivery';
export { createEventQueue } from './event-queue';

/** The queue's and delivery's code may be missing (not loaded yet, or never): not here. */
export const LAZY = false;

/** Nothing to load (never called: LAZY is false). */
export const loadDurable = (): Promise<void> => Promise.resolve();
