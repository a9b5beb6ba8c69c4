// One store call bounded in time, for the stores that call another process or object: a store
// that stalls must cost a request its limits and memory, never its events.

export interface TimeLimitHooks {
  /** Appended to the time-out message, e.g. ' (Redis stalled or unreachable)'. */
  why?: string;
  /** The limit passed first. */
  onTimeout?: () => void;
  /** A call that had timed out settled after all. */
  onLateAnswer?: () => void;
}

/**
 * `work`, or a rejection "`what` timed out after `ms` ms" once `ms` pass first; a failure of
 * `work` is named "`what` failed: <message>", with the original as its cause.
 */
export function timeLimit<T>(what: string, ms: number, work: Promise<T>, hooks: TimeLimitHooks = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timedOut = false;
    let done = false;
    // Expired only after the I/O that came meanwhile is read: a loop busy past `ms` (a long
    // request, a GC) runs its due timers before it reads the sockets, and would take an answer
    // that came in time for a stalled store (then a claim forwarded without one: a duplicate).
    const timer = setTimeout(
      () =>
        (globalThis.setImmediate ?? setTimeout)(() => {
          if (done) return;
          timedOut = true;
          hooks.onTimeout?.();
          reject(new Error(`${what} timed out after ${ms} ms${hooks.why ?? ''}`));
        }),
      ms,
    );
    const settled = () => {
      done = true;
      clearTimeout(timer);
      if (timedOut) hooks.onLateAnswer?.();
    };
    work.then(
      (value) => {
        settled();
        resolve(value);
      },
      (error: unknown) => {
        settled();
        reject(new Error(`${what} failed: ${(error as Error)?.message ?? String(error)}`, { cause: error }));
      },
    );
  });
}
