// Type-only module: the emulator's public option and result types, and the part of an
// `Emulator` its admin routes are given (so they need nothing from create-emulator).
import type { KeyTile, Operation } from '../upstream/operations';
import type { IdentityResolution } from '../upstream/problem';
import type { Keys } from './auth';
import type { campaignSummary } from './campaigns';
import type { FaultSpec, FaultState } from './faults';
import type { ImportRecord, LiveImportSpec } from './file-imports';
import type { Campaign } from './seed-campaigns';
import type { EventRecord, ExperienceEventRecord, UserProfile } from './store';

/** Rate limits the emulator enforces per workspace, as the upstream documents them. */
export interface EmulatorLimits {
  /** Track event: events (actions) per minute. @default 30000 */
  eventsPerMinute: number;
  /** File-import status: requests per minute. @default 50 */
  fileImportRequestsPerMinute: number;
  /** Track user: updates (requests) per minute. @default 10000 */
  userUpdatesPerMinute: number;
  /** Campaign update: requests per second. @default 10 */
  campaignUpdatesPerSecond: number;
  /** Campaign update: requests per minute. @default 100 */
  campaignUpdatesPerMinute: number;
  /** Campaign update: requests per hour. @default 6000 */
  campaignUpdatesPerHour: number;
}

/** Options of `createEmulator`; every one is optional. */
export interface EmulatorOptions {
  /** @default 'ENGAGEDEMO01' */
  workspaceId?: string;
  /** @default { data: 'emulator-data-key', personalize: 'emulator-personalize-key', campaign: 'emulator-campaign-key' } */
  keys?: Partial<Keys>;
  /** Turns identity resolution on, with these identifier attributes. @default off */
  identityResolution?: IdentityResolution;
  /** Clock in ms, for tests. @default Date.now */
  now?: () => number;
  /** Seeds the seeded data (import ids) and the fault draws. @default 1 */
  seed?: number;
  /** Faults active from the start (the CLI's `--fault-*` flags). @default none */
  faults?: FaultSpec;
  /** Rate limits; `false` turns them all off. @default DEFAULT_LIMITS */
  limits?: Partial<EmulatorLimits> | false;
  /** How far in the future an event time may be (clock skew) before it is refused. @default 60 */
  futureSkewSeconds?: number;
  /**
   * Journal file: every accepted write (and key rotation, and created import) is appended and
   * flushed before the answer, and replayed at start. @default none (memory only)
   */
  dataFile?: string;
  /** Entries kept in the request log. @default 10000 */
  requestLogSize?: number;
}

/** One line of the request log. Never holds a key or an Authorization header. */
export interface RequestLogEntry {
  time: string;
  method: string;
  path: string;
  status: number | 'reset';
  operation: Operation | null;
  fault: boolean;
}

/** A running emulator: its handler, and the in-code twins of the admin routes. */
export interface Emulator {
  /** The Web-standard handler; never throws. */
  handler: (request: Request, info?: { clientAddress?: string }) => Promise<Response>;
  /** The one workspace this emulator serves. */
  workspaceId: string;
  /** The keys accepted now. */
  readonly keys: Readonly<Keys>;
  /** Generates a new key for `tile`; the old one stops working at once. */
  rotateKey(tile: KeyTile): string;
  /** Sets the active fault (replacing any other). */
  setFaults(spec: FaultSpec): FaultState;
  /** Ends the active fault, if any. */
  clearFaults(): void;
  /** The active fault and its counters; null when none is active. */
  getFaults(): FaultState | null;
  /** Clears received data, faults, rate-limit windows and the log; restores the seeds. Keys stay. */
  reset(): void;
  /** Stored experience events (one per `svc_event_uuid`) and how many re-sends were dropped. */
  getExperienceEvents(): { unique: number; duplicates: number; events: ExperienceEventRecord[] };
  /** Stored profiles, and how many `update_existing_only` requests named an unknown user. */
  getUsers(): { count: number; skipped_updates: number; users: UserProfile[] };
  /** Stored events, one per action, oldest first. */
  getEvents(): { count: number; events: EventRecord[] };
  /** A summary line per campaign (seeded ones included). */
  getCampaigns(): { campaigns: Array<ReturnType<typeof campaignSummary>> };
  /** The stored campaign with its fields and update history; undefined for an unknown id. */
  getCampaign(id: string): Campaign | undefined;
  /** The request log, oldest first: method, path, status, operation; never a key or a header. */
  getRequests(): { requests: RequestLogEntry[] };
  /** Creates an import that moves QUEUED → PROCESSING → final status over `duration_ms`. */
  createFileImport(spec: LiveImportSpec): ImportRecord;
  /** Closes the journal file, if any. */
  close(): void;
}

/** The in-code methods the admin routes wrap: all of an `Emulator` but its handler. */
export type EmulatorControls = Omit<Emulator, 'handler'>;
