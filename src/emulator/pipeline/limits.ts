import { EVENTS_PER_MINUTE } from '../../upstream/events';
import { FILE_IMPORT_REQUESTS_PER_MINUTE } from '../../upstream/file-import-status';
import type { Operation } from '../../upstream/operations';
import { SlidingWindow } from '../rate-limit';
import type { EmulatorLimits } from '../types';

/** The upstream's documented limits, which the emulator enforces unless told otherwise. */
export const DEFAULT_LIMITS: Readonly<EmulatorLimits> = {
  eventsPerMinute: EVENTS_PER_MINUTE,
  fileImportRequestsPerMinute: FILE_IMPORT_REQUESTS_PER_MINUTE,
  userUpdatesPerMinute: 10_000,
  campaignUpdatesPerSecond: 10,
  campaignUpdatesPerMinute: 100,
  campaignUpdatesPerHour: 6000,
};

/**
 * The workspace's rate limits. Track event is limited by the number of events, so it is taken
 * once the body is known to be valid; the other operations by requests, before the body is read.
 */
export class Limits {
  private readonly events: SlidingWindow | undefined;
  private readonly requests: Partial<Record<Operation, SlidingWindow[]>>;

  constructor(options: Partial<EmulatorLimits> | false | undefined) {
    const limits = options === false ? undefined : { ...DEFAULT_LIMITS, ...options };
    this.events = limits && new SlidingWindow(limits.eventsPerMinute, 60_000);
    this.requests = limits
      ? {
          fileImportStatus: [new SlidingWindow(limits.fileImportRequestsPerMinute, 60_000)],
          users: [new SlidingWindow(limits.userUpdatesPerMinute, 60_000)],
          campaignUpdate: [
            new SlidingWindow(limits.campaignUpdatesPerSecond, 1000),
            new SlidingWindow(limits.campaignUpdatesPerMinute, 60_000),
            new SlidingWindow(limits.campaignUpdatesPerHour, 3_600_000),
          ],
        }
      : {};
  }

  /** Spends one request of `operation`; when a window is full, the seconds to wait instead. */
  takeRequest(operation: Operation, now: number): number | undefined {
    for (const window of this.requests[operation] ?? []) {
      const taken = window.take(now);
      if (!taken.ok) return taken.retryAfterSeconds;
    }
    return undefined;
  }

  /** Spends `count` events; when the window is full, the seconds to wait instead. */
  takeEvents(now: number, count: number): number | undefined {
    const taken = this.events?.take(now, count);
    return taken && !taken.ok ? taken.retryAfterSeconds : undefined;
  }

  clear(): void {
    this.events?.clear();
    for (const window of Object.values(this.requests).flat()) window.clear();
  }
}
