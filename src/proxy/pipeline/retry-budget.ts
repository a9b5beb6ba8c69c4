// The proxy's own upstream retries, capped at a share of its requests (Finagle's RetryBudget,
// Envoy's retry_budget, gRPC's retry throttling): while the upstream fails, three attempts per
// request would triple the load on it exactly when it can bear least. Past the budget a request
// gets the upstream's failure at once, and the tracker's backoff, spread over every browser,
// does the waiting.

/** Length of the window requests and retries are counted over. */
const WINDOW_MS = 10_000;
const SLOTS = 10;
const SLOT_MS = WINDOW_MS / SLOTS;

/**
 * Allows a retry while the retries of the last 10 s stay within `ratio` of the requests of the
 * same 10 s, plus `floor` retries (so a quiet proxy still retries its rare failure).
 *
 * @example
 * const budget = new RetryBudget(0.2, 10);
 * budget.request(); // once per forwarded request
 * if (budget.retry()) { ...try again... } // withdraws one retry when allowed
 */
export class RetryBudget {
  private readonly requests = new Float64Array(SLOTS);
  private readonly retries = new Float64Array(SLOTS);
  private slot = 0;
  private slotEnds = 0;

  /**
   * @param ratio retries allowed per request (0.2: at most 1.2 attempts per request on average)
   * @param floor retries allowed per window whatever the traffic
   * @param now the clock (tests give their own)
   */
  constructor(
    readonly ratio: number,
    readonly floor: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request that goes upstream. */
  request(): void {
    this.advance();
    this.requests[this.slot]!++;
  }

  /** Whether one more retry is within the budget; when it is, it is counted. */
  retry(): boolean {
    this.advance();
    let requests = 0;
    let retries = 0;
    for (let i = 0; i < SLOTS; i++) {
      requests += this.requests[i]!;
      retries += this.retries[i]!;
    }
    if (retries + 1 > this.floor + this.ratio * requests) return false;
    this.retries[this.slot]!++;
    return true;
  }

  // Moves to the slot of now, emptying those that fell out of the window.
  private advance(): void {
    const now = this.now();
    if (now < this.slotEnds) return;
    const passed = this.slotEnds === 0 ? SLOTS : Math.min(SLOTS, Math.floor((now - this.slotEnds) / SLOT_MS) + 1);
    for (let i = 0; i < passed; i++) {
      this.slot = (this.slot + 1) % SLOTS;
      this.requests[this.slot] = 0;
      this.retries[this.slot] = 0;
    }
    this.slotEnds = (Math.floor(now / SLOT_MS) + 1) * SLOT_MS;
  }
}
