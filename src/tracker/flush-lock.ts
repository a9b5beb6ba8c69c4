import type { EventQueue } from './event-queue';

const LEASE_MS = 15_000;

/**
 * Runs `fn` while this tab alone may flush the shared queue, so no event is sent by two tabs.
 * Web Locks where available: the browser releases a lock when its tab dies. Elsewhere a lease in
 * IndexedDB, renewed while held, that simply expires if its tab dies (snowplow #349: a lock with
 * no expiry is orphaned by a closed tab). `wait: false` gives up at once when another tab holds it.
 * `owner` is fixed per tracker, so a lease this tab failed to release never blocks itself.
 * Resolves `undefined` when the lock was not had.
 */
export async function withFlushLock<T>(
  name: string,
  owner: string,
  wait: boolean,
  queue: EventQueue,
  fn: () => Promise<T>,
): Promise<T | undefined> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks) {
    return locks.request(name, { ifAvailable: !wait }, (lock) => (lock ? fn() : undefined));
  }
  for (let tries = 0; !(await queue.lease(owner, LEASE_MS)); tries++) {
    if (!wait || tries > LEASE_MS / 250) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const renew = setInterval(() => void queue.lease(owner, LEASE_MS), LEASE_MS / 3);
  try {
    return await fn();
  } finally {
    clearInterval(renew);
    void queue.lease(owner, 0);
  }
}
