import type { RequestLogEntry } from './types';

/** The newest `size` upstream requests, with what they were answered; never a key or a header. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];

  constructor(
    private readonly size: number,
    private readonly clock: () => number,
  ) {}

  /** Adds a request answered now. */
  record(entry: Omit<RequestLogEntry, 'time'>): void {
    this.entries.push({ time: new Date(this.clock()).toISOString(), ...entry });
    if (this.entries.length > this.size) this.entries = this.entries.slice(-this.size);
  }

  /** Oldest first. */
  list(): RequestLogEntry[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }
}
