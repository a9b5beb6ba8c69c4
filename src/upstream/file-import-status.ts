import { FILE_IMPORT_ENUM_ERROR } from './error-types';
import { at, isObject, oneOf, own, problem, type Problem } from './problem';

/** `import_type` filter values (case-sensitive, like every filter here). */
export const IMPORT_TYPES = ['USERS', 'EVENTS', 'AUX_DATA'] as const;
/** `schedule_type` filter values. */
export const SCHEDULE_TYPES = ['PERIODIC', 'ONETIME'] as const;
/** `file_source` filter values. */
export const FILE_SOURCES = ['SFTP', 'S3', 'CSV'] as const;
/** `schedule_status` filter values. */
export const SCHEDULE_STATUSES = ['SUCCESSFUL', 'FAILED', 'PARTIAL_SUCCESS', 'SCHEDULED', 'PROCESSING', 'QUEUED', 'ARCHIVED'] as const;
/** Statuses after which an import no longer changes. */
export const TERMINAL_STATUSES = ['SUCCESSFUL', 'FAILED', 'PARTIAL_SUCCESS', 'ARCHIVED'] as const;
/** The eight date layouts `date.format` may name. */
export const DATE_FORMATS = [
  'YYYY-MM-DD',
  'YYYY/MM/DD',
  'DD/MM/YYYY',
  'DD-MM-YYYY',
  'DD-MM-YYYY hh:mm:ss',
  'DD/MM/YYYY hh:mm:ss',
  'YYYY-MM-DD hh:mm:ss',
  'YYYY/MM/DD hh:mm:ss',
] as const;
/** One of the eight `DATE_FORMATS`. */
export type DateFormat = (typeof DATE_FORMATS)[number];
/** Entries per page. */
export const FILE_IMPORT_PAGE_SIZE = 50;
/** Requests per minute per workspace before the upstream answers 429. */
export const FILE_IMPORT_REQUESTS_PER_MINUTE = 50;
/** Widest date range, in days. */
export const MAX_DATE_RANGE_DAYS = 30;

const DAY_MS = 86_400_000;
const ENUM_FILTERS = [
  ['import_type', IMPORT_TYPES],
  ['schedule_type', SCHEDULE_TYPES],
  ['file_source', FILE_SOURCES],
  ['schedule_status', SCHEDULE_STATUSES],
] as const;

/** A file-import status request, read and normalised: filters are lists, dates are instants. */
export interface FileImportQuery {
  importName?: string;
  importTypes?: string[];
  scheduleTypes?: string[];
  fileSources?: string[];
  scheduleStatuses?: string[];
  /** Inclusive range in epoch ms (UTC); a date-only end covers its whole day. */
  range?: { startMs: number; endMs: number };
  /** 1-based page number. */
  offset: number;
}

/**
 * Reads a date string in one of the eight layouts, as UTC. Undefined when the string doesn't
 * match the layout or names no real date (`31/02/2024`).
 *
 * @example
 * parseImportDate('14/11/2024', 'DD/MM/YYYY'); // Date.UTC(2024, 10, 14)
 */
export function parseImportDate(value: string, format: DateFormat): number | undefined {
  const pattern = format
    .replace(/[/]/g, '\\/')
    .replace('YYYY', '(?<y>\\d{4})')
    .replace('MM', '(?<mo>\\d{2})')
    .replace('DD', '(?<d>\\d{2})')
    .replace('hh', '(?<h>\\d{2})')
    .replace('mm', '(?<mi>\\d{2})')
    .replace('ss', '(?<s>\\d{2})');
  const match = new RegExp(`^${pattern}$`).exec(value.trim());
  if (!match?.groups) return undefined;
  const g = match.groups;
  const [y, mo, d, h, mi, s] = [g.y, g.mo, g.d, g.h ?? '0', g.mi ?? '0', g.s ?? '0'].map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  return new Date(ms).getUTCDate() === d ? ms : undefined;
}

/**
 * Checks and normalises a file-import status body. Filters are accepted both as one value
 * (the schema) and as a list (the examples); `offset` as an integer or a digit string (the
 * example sends `"1"`); the date layout key as `format` or `datetime_format` (the prose).
 *
 * @example
 * parseFileImportQuery({ import_type: ['USERS'], offset: '2' }); // { query: { importTypes: ['USERS'], offset: 2 } }
 */
export function parseFileImportQuery(body: unknown): { query: FileImportQuery; problem?: undefined } | { query?: undefined; problem: Problem } {
  if (!isObject(body)) return { problem: problem('body', 'must be a JSON object', 400, 'Invalid Request') };
  const query: FileImportQuery = { offset: 1 };
  const name = own(body, 'import_name');
  if (name !== undefined) {
    if (typeof name !== 'string') return { problem: problem('import_name', 'must be a string', 400, 'Invalid Request') };
    query.importName = name;
  }
  const keys = { import_type: 'importTypes', schedule_type: 'scheduleTypes', file_source: 'fileSources', schedule_status: 'scheduleStatuses' } as const;
  for (const [field, values] of ENUM_FILTERS) {
    const raw = own(body, field);
    if (raw === undefined || raw === null) continue;
    const list = Array.isArray(raw) ? raw : [raw];
    for (let i = 0; i < list.length; i++) {
      if (typeof list[i] !== 'string' || !(values as readonly string[]).includes(list[i] as string)) {
        return { problem: problem(Array.isArray(raw) ? at(field, i) : field, `${oneOf(values)} (case-sensitive)`, 400, FILE_IMPORT_ENUM_ERROR) };
      }
    }
    if (list.length) query[keys[field]] = list as string[];
  }
  const date = own(body, 'date');
  if (date !== undefined && date !== null) {
    const range = readRange(date);
    if ('problem' in range) return { problem: range.problem };
    query.range = range;
  }
  const offset = own(body, 'offset');
  if (offset !== undefined && offset !== null) {
    const n = typeof offset === 'string' && /^\d+$/.test(offset.trim()) ? Number(offset) : offset;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
      return { problem: problem('offset', 'must be an integer of at least 1', 400, 'Invalid Offset Value') };
    }
    query.offset = n;
  }
  return { query };
}

function readRange(date: unknown): { startMs: number; endMs: number } | { problem: Problem } {
  const bad = (field: string, rule: string, type = 'Invalid Date format') => ({ problem: problem(field, rule, 400, type) });
  if (!isObject(date)) return bad('date', 'must be an object { start_date, end_date, format }');
  const format = own(date, 'format') ?? own(date, 'datetime_format');
  if (typeof format !== 'string' || !(DATE_FORMATS as readonly string[]).includes(format)) return bad('date.format', oneOf(DATE_FORMATS));
  const read = (key: 'start_date' | 'end_date') => {
    const value = own(date, key);
    return typeof value === 'string' ? parseImportDate(value, format as DateFormat) : undefined;
  };
  const start = read('start_date');
  if (start === undefined) return bad('date.start_date', `must be a date in the layout ${format}`);
  const end = read('end_date');
  if (end === undefined) return bad('date.end_date', `must be a date in the layout ${format}`);
  if (end < start) return bad('date.end_date', 'must not be before date.start_date');
  if (end - start > MAX_DATE_RANGE_DAYS * DAY_MS) return bad('date', `must span at most ${MAX_DATE_RANGE_DAYS} days`, 'Difference exceeds 30 days');
  // A day-only end date means "through that day".
  const endMs = format.includes('hh') ? end : end + DAY_MS - 1;
  return { startMs: start, endMs };
}

/**
 * Checks a file-import status body; the first problem, or undefined.
 *
 * @example
 * validateFileImportStatus({ offset: 0 }); // { field: 'offset', rule: 'must be an integer of at least 1', status: 400, type: 'Invalid Offset Value' }
 */
export function validateFileImportStatus(body: unknown): Problem | undefined {
  return parseFileImportQuery(body).problem;
}
