import { ValidationError } from '../errors';
import { TERMINAL_STATUSES, validateFileImportStatus } from '../upstream/file-import-status';
import { createPacer, createTransport, sleep, type Transport } from './transport';
import type {
  CallOptions,
  FileImport,
  FileImportFilter,
  FileImportPage,
  FileImportsApi,
  ImportDateFormat,
  ImportProgress,
  TransportOptions,
  WatchOptions,
} from './types';
import { toWire } from './wire';

const PATH = '/v1.0/data/fileimports/import/status';
/** 60 000 ms / 1 250 ms = 48 requests per minute: under the upstream's 50. */
const MIN_POLL_GAP_MS = 1250;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Writes a `Date` in one of the eight layouts, in UTC (the layouts carry no zone). */
function formatImportDate(date: Date, format: ImportDateFormat): string {
  return format
    .replace('YYYY', pad(date.getUTCFullYear(), 4))
    .replace('MM', pad(date.getUTCMonth() + 1))
    .replace('DD', pad(date.getUTCDate()))
    .replace('hh', pad(date.getUTCHours()))
    .replace('mm', pad(date.getUTCMinutes()))
    .replace('ss', pad(date.getUTCSeconds()));
}

function filterBody(filter: FileImportFilter): Record<string, unknown> {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) throw new ValidationError('filter', 'must be an object');
  const { date, ...rest } = filter;
  const body = toWire(rest) as Record<string, unknown>;
  if (date !== undefined) {
    const layout = (d: unknown) => (d instanceof Date && typeof date?.format === 'string' ? formatImportDate(d, date.format) : d);
    body.date = toWire(typeof date === 'object' && date !== null ? { ...date, start_date: layout(date.start_date), end_date: layout(date.end_date) } : date, 'date');
  }
  // The upstream reads a digit string too, but the typed API promises an integer.
  if (body.offset !== undefined && (typeof body.offset !== 'number' || !Number.isInteger(body.offset) || body.offset < 1)) {
    throw new ValidationError('offset', 'must be an integer of at least 1');
  }
  const problem = validateFileImportStatus(body);
  if (problem) throw new ValidationError(problem.field, problem.rule);
  return body;
}

function readPage(body: unknown): FileImportPage {
  const page = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  // `more_files` is declared a string and shown as a boolean: both are read.
  const more = page.more_files === true || page.more_files === 'true';
  return {
    status: 'success',
    total_count: typeof page.total_count === 'number' ? page.total_count : Number(page.total_count) || 0,
    data: Array.isArray(page.data) ? (page.data as FileImport[]) : [],
    offset: typeof page.offset === 'number' ? page.offset : Number(page.offset) || 1,
    more_files: more,
  };
}

function progressOf(record: FileImport): ImportProgress {
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const [pf, tf, pr, tr] = [n(record.processed_files), n(record.total_files), n(record.processed_rows), n(record.total_rows)];
  const status = record.status ?? record.last_run_status;
  return {
    import_name: record.import_name,
    status,
    done: (TERMINAL_STATUSES as readonly string[]).includes(status),
    processed_files: pf,
    total_files: tf,
    processed_rows: pr,
    total_rows: tr,
    fraction: tr > 0 ? Math.min(1, pr / tr) : tf > 0 ? Math.min(1, pf / tf) : 0,
    record,
  };
}

/**
 * The file-import part of the client, over a transport (used by `createClient`).
 *
 * @example
 * const fileImports = createFileImportsApi(createTransport({ endpoint: '/engage' }));
 */
export function createFileImportsApi(transport: Transport): FileImportsApi {
  // Shared by every watch of this client, and every attempt (retries included) goes through it:
  // all watches together stay at ≤ 48 requests per minute.
  const pacer = createPacer(MIN_POLL_GAP_MS);
  async function status(filter: FileImportFilter = {}, call?: CallOptions & { pacer?: ReturnType<typeof createPacer> }): Promise<FileImportPage> {
    const body = filterBody(filter);
    return readPage(await transport.send('fileImportStatus', 'POST', PATH, body, call));
  }

  return {
    status: (filter, call) => status(filter, call),

    async *pages(filter = {}, call) {
      let offset = filter.offset ?? 1;
      for (;;) {
        const page = await status({ ...filter, offset }, call);
        yield page;
        // An empty page ends the walk even if `more_files` says otherwise: no endless loop.
        if (!page.more_files || page.data.length === 0) return;
        offset = page.offset + 1;
      }
    },

    async *watch(importName, options: WatchOptions = {}) {
      if (typeof importName !== 'string' || importName === '') throw new ValidationError('importName', 'must be a non-empty string');
      const gap = Math.max(MIN_POLL_GAP_MS, typeof options.intervalMs === 'number' && Number.isFinite(options.intervalMs) ? options.intervalMs : 5000);
      const call = options.signal ? { signal: options.signal, pacer } : { pacer };
      for (;;) {
        const page = await status({ import_name: importName }, call);
        // Newest first: a periodic import's latest run is the one to follow.
        const record = page.data.find((r) => r.import_name === importName);
        if (!record) throw new ValidationError('importName', `matches no import (no import named "${importName}")`);
        const progress = progressOf(record);
        yield progress;
        if (progress.done) return;
        await sleep(gap, options.signal);
      }
    },
  };
}

/**
 * The file-import status part of the client on its own, for apps (or bundles) that need nothing
 * else: `status`, `pages` and `watch`, over `POST {endpoint}/v1.0/data/fileimports/import/status`.
 * Same options as `createClient` (endpoint, fetch, headers, timeouts, retries).
 *
 * @example
 * const fileImports = createFileImports({ endpoint: '/engage', headers: { Authorization: `Bearer ${token}` } });
 * for await (const p of fileImports.watch('users_2024_11')) console.log(p.status, `${p.processed_rows}/${p.total_rows}`);
 */
export function createFileImports(options: TransportOptions): FileImportsApi {
  return createFileImportsApi(createTransport(options));
}
