import {
  FILE_IMPORT_PAGE_SIZE,
  FILE_SOURCES,
  IMPORT_TYPES,
  SCHEDULE_STATUSES,
  SCHEDULE_TYPES,
  TERMINAL_STATUSES,
  type FileImportQuery,
} from '../upstream/file-import-status';
import { hex, pick, seededRandom } from './random';

/** One import record, as the upstream returns it. */
export interface ImportRecord {
  import_id: string;
  import_name: string;
  last_run_status: string;
  import_type: string;
  schedule_type: string;
  import_source: string;
  custom_segment_config: Record<string, unknown>;
  aux_data_config: { primary_key: string; retention_period: number; retention_type: string } | Record<string, never>;
  total_files: number;
  processed_files: number;
  total_rows: number;
  processed_rows: number;
  created_at: string;
  last_run_at: string | null;
  next_scheduled_at: string | null;
  created_by_email: string;
  status: string;
  time_zone: string;
}

/** An import created through the admin API: it moves QUEUED → PROCESSING → final over time. */
export interface LiveImport {
  record: ImportRecord;
  startedMs: number;
  durationMs: number;
  finalStatus: string;
}

/** What `POST /_emulator/file-imports` takes. */
export interface LiveImportSpec {
  import_name: string;
  /** @default 'USERS' */
  import_type?: string;
  /** @default 4 */
  total_files?: number;
  /** @default 10000 */
  total_rows?: number;
  /** @default 3000 */
  duration_ms?: number;
  /** @default 'SUCCESSFUL' */
  final_status?: string;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONES = ['Asia/Calcutta', 'UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Singapore'];

/** Upstream timestamp layout: ISO 8601, microseconds, no zone suffix. */
export const importTimestamp = (ms: number): string =>
  new Date(ms)
    .toISOString()
    .replace('Z', '')
    .replace(/\.(\d{3})$/, '.$1000');

/**
 * At least 120 seeded imports covering every type × source × status, with consistent counters
 * (processed ≤ total, complete only when SUCCESSFUL/ARCHIVED) and timestamps
 * (created ≤ last run ≤ now < next run), spread over the 90 days before `now`.
 *
 * @example
 * seedImports(1, Date.now()).length; // 126
 */
export function seedImports(seed: number, now: number): ImportRecord[] {
  const next = seededRandom(seed ^ 0x5eed);
  const records: ImportRecord[] = [];
  let n = 0;
  for (const type of IMPORT_TYPES) {
    for (const source of FILE_SOURCES) {
      for (const status of SCHEDULE_STATUSES) {
        for (let copy = 0; copy < 2; copy++) {
          n++;
          const scheduleType = copy === 0 ? 'ONETIME' : pick(next, SCHEDULE_TYPES);
          const createdMs = now - Math.floor((5 + next() * 85) * DAY);
          const ran = status !== 'SCHEDULED' && status !== 'QUEUED';
          const lastRunMs = ran ? Math.min(now - HOUR, createdMs + Math.floor(next() * (now - createdMs))) : null;
          const totalFiles = 1 + Math.floor(next() * 20);
          const totalRows = totalFiles * (100 + Math.floor(next() * 5000));
          const [files, rows] = progress(status, totalFiles, totalRows, 0.2 + next() * 0.6);
          records.push({
            import_id: hex(next, 24),
            import_name: `${type.toLowerCase()}_${source.toLowerCase()}_${status.toLowerCase()}_${String(n).padStart(3, '0')}`,
            last_run_status: status,
            import_type: type,
            schedule_type: scheduleType,
            import_source: source,
            custom_segment_config: {},
            aux_data_config: type === 'AUX_DATA' ? { primary_key: 'sku', retention_period: 30, retention_type: pick(next, ['DAYS', 'WEEKS', 'MONTHS']) } : {},
            total_files: totalFiles,
            processed_files: files,
            total_rows: totalRows,
            processed_rows: rows,
            created_at: importTimestamp(createdMs),
            last_run_at: lastRunMs === null ? null : importTimestamp(lastRunMs),
            next_scheduled_at:
              (scheduleType === 'PERIODIC' && status !== 'ARCHIVED') || status === 'SCHEDULED' ? importTimestamp(now + Math.floor((1 + next() * 6) * DAY)) : null,
            created_by_email: `ops${1 + (n % 5)}@example.com`,
            status,
            time_zone: pick(next, ZONES),
          });
        }
      }
    }
  }
  return records;
}

/** Processed counters for a status: monotone in `fraction` and never above the totals. */
function progress(status: string, totalFiles: number, totalRows: number, fraction: number): [number, number] {
  switch (status) {
    case 'SUCCESSFUL':
    case 'ARCHIVED':
      return [totalFiles, totalRows];
    case 'PARTIAL_SUCCESS':
      return [totalFiles, Math.min(totalRows - 1, Math.floor(totalRows * (0.5 + fraction / 2)))];
    case 'FAILED':
    case 'PROCESSING':
      return [Math.min(totalFiles - 1, Math.floor(totalFiles * fraction)), Math.min(totalRows - 1, Math.floor(totalRows * fraction))];
    default:
      return [0, 0];
  }
}

/**
 * Reads and checks a live-import spec; throws an Error naming the field and the rule.
 */
export function parseLiveImportSpec(input: unknown): Required<LiveImportSpec> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new Error('body must be a JSON object');
  const raw = input as Record<string, unknown>;
  if (typeof raw.import_name !== 'string' || raw.import_name === '') throw new Error('import_name is required (a non-empty string)');
  const int = (key: string, fallback: number, min: number): number => {
    const value = raw[key] ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw new Error(`${key} must be an integer of at least ${min}`);
    return value;
  };
  const importType = raw.import_type ?? 'USERS';
  if (!(IMPORT_TYPES as readonly unknown[]).includes(importType)) throw new Error(`import_type must be one of ${IMPORT_TYPES.join(', ')}`);
  const finalStatus = raw.final_status ?? 'SUCCESSFUL';
  if (!(TERMINAL_STATUSES as readonly unknown[]).includes(finalStatus)) throw new Error(`final_status must be one of ${TERMINAL_STATUSES.join(', ')}`);
  return {
    import_name: raw.import_name,
    import_type: importType as string,
    total_files: int('total_files', 4, 1),
    total_rows: int('total_rows', 10_000, 1),
    duration_ms: int('duration_ms', 3000, 0),
    final_status: finalStatus as string,
  };
}

/** Creates a live import starting at `now`. */
export function createLiveImport(spec: Required<LiveImportSpec>, now: number, id: string): LiveImport {
  return {
    startedMs: now,
    durationMs: spec.duration_ms,
    finalStatus: spec.final_status,
    record: {
      import_id: id,
      import_name: spec.import_name,
      last_run_status: 'QUEUED',
      import_type: spec.import_type,
      schedule_type: 'ONETIME',
      import_source: 'S3',
      custom_segment_config: {},
      aux_data_config: spec.import_type === 'AUX_DATA' ? { primary_key: 'id', retention_period: 30, retention_type: 'DAYS' } : {},
      total_files: spec.total_files,
      processed_files: 0,
      total_rows: spec.total_rows,
      processed_rows: 0,
      created_at: importTimestamp(now),
      last_run_at: null,
      next_scheduled_at: null,
      created_by_email: 'emulator@example.com',
      status: 'QUEUED',
      time_zone: 'UTC',
    },
  };
}

// Share of the run spent queued before processing starts.
const QUEUED_SHARE = 0.1;
// Where a failing run stops, and how many rows a partial success loses.
const FAIL_AT = 0.6;
const PARTIAL_ROWS = 0.9;

/**
 * The record of a live import as of `now`: QUEUED for the first tenth of its duration, then
 * PROCESSING with counters rising in proportion to elapsed time, then its final status. The
 * counters never go down between two reads.
 */
export function liveRecord(live: LiveImport, now: number): ImportRecord {
  const elapsed = now - live.startedMs;
  const record = { ...live.record };
  const finished = live.durationMs === 0 || elapsed >= live.durationMs;
  if (!finished && elapsed / live.durationMs < QUEUED_SHARE) return record;
  const { total_files: files, total_rows: rows } = record;
  const [finalFiles, finalRows] = finalCounters(live.finalStatus, files, rows);
  record.last_run_at = importTimestamp(live.startedMs + Math.floor(live.durationMs * QUEUED_SHARE));
  if (finished) {
    record.status = record.last_run_status = live.finalStatus;
    record.processed_files = finalFiles;
    record.processed_rows = finalRows;
    return record;
  }
  const p = (elapsed / live.durationMs - QUEUED_SHARE) / (1 - QUEUED_SHARE);
  record.status = record.last_run_status = 'PROCESSING';
  // Capped at where the final status will leave them, so the counters only ever rise.
  record.processed_files = Math.min(finalFiles, Math.floor(files * p));
  record.processed_rows = Math.min(finalRows, Math.floor(rows * p));
  return record;
}

/** Processed files and rows once a live import ends with `status`. */
function finalCounters(status: string, files: number, rows: number): [number, number] {
  if (status === 'FAILED') return [Math.min(files - 1, Math.floor(files * FAIL_AT)), Math.min(rows - 1, Math.floor(rows * FAIL_AT))];
  if (status === 'PARTIAL_SUCCESS') return [files, Math.min(rows - 1, Math.floor(rows * PARTIAL_ROWS))];
  return [files, rows];
}

const parseTimestamp = (value: string): number => Date.parse(`${value.slice(0, 23)}Z`);

/**
 * One page of the records matching `query`, newest first, as the upstream's 200 body.
 * `total_count` is the number of matching imports across all pages.
 */
export function queryImports(records: ImportRecord[], query: FileImportQuery) {
  const matches = records.filter((r) => {
    if (query.importName !== undefined && r.import_name !== query.importName) return false;
    if (query.importTypes && !query.importTypes.includes(r.import_type)) return false;
    if (query.scheduleTypes && !query.scheduleTypes.includes(r.schedule_type)) return false;
    if (query.fileSources && !query.fileSources.includes(r.import_source)) return false;
    if (query.scheduleStatuses && !query.scheduleStatuses.includes(r.status)) return false;
    if (query.range) {
      const at = parseTimestamp(r.last_run_at ?? r.created_at);
      if (at < query.range.startMs || at > query.range.endMs) return false;
    }
    return true;
  });
  matches.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  const start = (query.offset - 1) * FILE_IMPORT_PAGE_SIZE;
  const data = matches.slice(start, start + FILE_IMPORT_PAGE_SIZE);
  return { status: 'success', total_count: matches.length, data, offset: query.offset, more_files: start + FILE_IMPORT_PAGE_SIZE < matches.length };
}
