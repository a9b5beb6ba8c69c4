/**
 * A sliding-window counter: how much was spent in the last `windowMs`, and when enough of it
 * expires to admit a new cost. Buckets of 1 s keep memory bounded whatever the traffic.
 */
export class SlidingWindow {
  private readonly buckets = new Map<number, number>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly bucketMs = Math.max(1, Math.min(1000, Math.floor(windowMs / 10))),
  ) {}

  /**
   * Spends `cost` at `now` if it fits in the window; otherwise spends nothing and returns the
   * seconds to wait (for `Retry-After`).
   */
  take(now: number, cost = 1): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const used = this.used(now);
    if (used + cost <= this.limit) {
      const bucket = Math.floor(now / this.bucketMs);
      this.buckets.set(bucket, (this.buckets.get(bucket) ?? 0) + cost);
      return { ok: true };
    }
    // Walk buckets oldest first until enough would have expired for this cost.
    let freed = 0;
    let waitMs = this.windowMs;
    const needed = used + cost - this.limit;
    for (const [bucket, count] of [...this.buckets].sort((a, b) => a[0] - b[0])) {
      freed += count;
      if (freed >= needed) {
        waitMs = bucket * this.bucketMs + this.windowMs - now;
        break;
      }
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  private used(now: number): number {
    const oldest = Math.floor((now - this.windowMs) / this.bucketMs);
    let total = 0;
    for (const [bucket, count] of this.buckets) {
      if (bucket <= oldest) this.buckets.delete(bucket);
      else total += count;
    }
    return total;
  }

  clear(): void {
    this.buckets.clear();
  }
}
