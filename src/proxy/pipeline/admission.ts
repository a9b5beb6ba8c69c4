// Admission to one upstream origin: a semaphore with a bounded wait queue, so a slow upstream
// costs a bounded number of held requests (and their bodies) instead of one per arrival. Past
// both bounds a request is refused at once, and the tracker keeps and re-sends its events.

/** Why a request was not admitted: every slot taken and the queue full, or its wait ran out. */
export type Refused = 'full' | 'waited';

/** The answer to `acquire()`: a slot (give it back with `release()`), or why not. */
export type Admitted = true | Refused;

const GRANTED: Promise<Admitted> = Promise.resolve(true);

interface Waiter {
  grant: (admitted: Admitted) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * At most `concurrency` holders at once and at most `queue` waiting for one (first come, first
 * served); a waiter not served within `maxWaitMs` is refused. Synchronous bookkeeping only: no
 * timer unless someone waits.
 *
 * @example
 * const admission = new Admission(512, 512, 10_000);
 * if ((await admission.acquire()) === true) {
 *   try { await forward(); } finally { admission.release(); }
 * }
 */
export class Admission {
  /** Slots held now. */
  active = 0;
  private readonly waiters: Waiter[] = [];
  private head = 0;
  // Waiters whose wait ran out, left in the array until reached (not counted as waiting).
  private gone = 0;

  /**
   * @param concurrency holders at once (≥ 1)
   * @param queue requests allowed to wait for a slot (≥ 0)
   * @param maxWaitMs longest wait for a slot before the request is refused (0: no limit)
   */
  constructor(
    readonly concurrency: number,
    readonly queue: number,
    readonly maxWaitMs: number,
  ) {}

  /** Requests waiting for a slot now. */
  get waiting(): number {
    return this.waiters.length - this.head - this.gone;
  }

  /** Every slot taken and the queue full: a request arriving now would be refused. */
  get full(): boolean {
    return this.active >= this.concurrency && this.waiting >= this.queue;
  }

  /** A slot now, a place in the queue, or a refusal ('full') when there is neither. */
  acquire(): Promise<Admitted> {
    if (this.active < this.concurrency) {
      this.active++;
      return GRANTED;
    }
    if (this.waiting >= this.queue) return Promise.resolve('full');
    return new Promise<Admitted>((grant) => {
      const waiter: Waiter = { grant, timer: undefined };
      if (this.maxWaitMs > 0 && typeof setTimeout === 'function') {
        waiter.timer = setTimeout(() => {
          // Left in place and skipped when reached: removal from the middle would cost O(n).
          waiter.grant = noop;
          this.gone++;
          grant('waited');
        }, this.maxWaitMs);
      }
      this.waiters.push(waiter);
    });
  }

  /** Gives a slot back: straight to the longest waiter still waiting, if any. */
  release(): void {
    while (this.head < this.waiters.length) {
      const waiter = this.waiters[this.head]!;
      this.waiters[this.head++] = undefined as never;
      if (this.head > 1024 && this.head * 2 > this.waiters.length) this.compact();
      if (waiter.grant === noop) {
        this.gone--;
        continue;
      }
      if (waiter.timer !== undefined) clearTimeout(waiter.timer);
      // The slot passes to the waiter: `active` stays as it is.
      waiter.grant(true);
      return;
    }
    this.active--;
  }

  private compact(): void {
    this.waiters.splice(0, this.head);
    this.head = 0;
  }
}

function noop(): void {}
