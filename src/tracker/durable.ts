// What the tracker stores and sends with, made on the first grant: the queue in IndexedDB, its
// delivery through the proxy, and Background Sync. One object, loaded as code of its own: a chunk of
// a module build (load-durable.ts), a file beside the script tag (load-durable-script.ts).
import { backgroundSync } from './background-sync';
import { createDelivery } from './delivery';
import { createEventQueue } from './event-queue';

export const durable = { _queue: createEventQueue, _delivery: createDelivery, _sync: backgroundSync };
export type Durable = typeof durable;
