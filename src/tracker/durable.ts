// What the tracker stores and sends with, made on the first grant: the queue in IndexedDB, its
// delivery through the proxy, and Background Sync. One object, so that the script tag can load it
// as a file of its own (load-durable-script.ts) while a module build imports it (load-durable.ts).
import { backgroundSync } from './background-sync';
import { createDelivery } from './delivery';
import { createEventQueue } from './event-queue';

export const durable = { _queue: createEventQueue, _delivery: createDelivery, _sync: backgroundSync };
export type Durable = typeof durable;
