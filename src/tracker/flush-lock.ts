import { noop } from './console';

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

/**
 * Takes the lock from whoever holds it, and lets it go at once. Firefox (153 ESR) grants a lock
 * asked for as the page enters the back/forward cache, then never runs its callback once the page
 * is restored: the lock stays held for as long as the page lives, and no tab delivers again. The
 * stolen request rejects, which ends the run that made it.
 */
export function stealFlushLock(name: string): void {
  void globalThis.navigator?.locks?.request(name, { steal: true }, noop);
}
