/**
 * Runs `fn` while this tab alone may flush the shared queue, so no event is sent by two tabs at
 * once: a Web Lock, which the browser releases when its tab dies (no orphaned lock, snowplow #349).
 * `wait: false` gives up at once when another tab holds it. Resolves `undefined` when the lock was
 * not had.
 *
 * Where Web Locks are missing (Safari before 15.4, Firefox before 96) each tab delivers on its own.
 * That costs no event and, at the upstream, no duplicate: the proxy forwards each UUID once at a
 * time and remembers those it forwarded. The IndexedDB lease that used to stand in for the lock
 * cost ~150 bytes gzip of every bundle for those browsers alone.
 */
export function withFlushLock<T>(name: string, wait: boolean, fn: () => Promise<T>): Promise<T | undefined> {
  const locks = globalThis.navigator?.locks;
  return locks ? locks.request(name, { ifAvailable: !wait }, (lock) => (lock ? fn() : undefined)) : fn();
}
