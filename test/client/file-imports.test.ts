import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client';
import { createFileImports } from '../../src/client/file-imports';
import type { FileImportPage, ImportProgress } from '../../src/client/types';
import { isAbortedError, isHttpError, isValidationError } from '../../src/errors';
import { ADMIN_TOKEN, rejection, startStack, type Stack } from './support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const headers = { Authorization: `Bearer ${ADMIN_TOKEN}` };
const imports = (s: Stack = stack, extra = {}) => createFileImports({ endpoint: s.endpoint, headers, retryBaseDelayMs: 1, ...extra });

describe('fileImports.status and pages against the real proxy and emulator', () => {
  it('status({}) lists the first page of 50, with more_files as a boolean', async () => {
    const page = await imports().status();
    expect(page.status).toBe('success');
    expect(page.offset).toBe(1);
    expect(page.data).toHaveLength(50);
    expect(page.total_count).toBeGreaterThanOrEqual(120);
    expect(page.more_files).toBe(true);
    expect(page.data[0]).toHaveProperty('import_id');
  });

  it('pages() follows more_files to the end: every import exactly once, over three pages or more', async () => {
    const pages: FileImportPage[] = [];
    for await (const page of imports().pages()) pages.push(page);
    const total = pages[0]!.total_count;
    expect(pages.length).toBe(Math.ceil(total / 50));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.map((p) => p.offset)).toEqual(pages.map((_, i) => i + 1));
    expect(pages.at(-1)!.more_files).toBe(false);
    const ids = pages.flatMap((p) => p.data.map((r) => r.import_id));
    expect(ids.length).toBe(total);
    expect(new Set(ids).size).toBe(total);
  });

  it('pages() starts at filter.offset and keeps the filters (single value and list forms)', async () => {
    const all: string[] = [];
    for await (const page of imports().pages({ import_type: 'USERS', schedule_status: ['SUCCESSFUL', 'FAILED'] })) {
      for (const r of page.data) {
        expect(r.import_type).toBe('USERS');
        expect(['SUCCESSFUL', 'FAILED']).toContain(r.status);
        all.push(r.import_id);
      }
    }
    expect(all.length).toBeGreaterThan(0);
    const fromTwo: FileImportPage[] = [];
    for await (const page of imports().pages({ offset: 2 })) fromTwo.push(page);
    expect(fromTwo[0]!.offset).toBe(2);
  });

  it('date ranges: Date values are written in the named layout (UTC); each of the eight layouts is accepted', async () => {
    const end = new Date();
    const start = new Date(end.getTime() - 29 * 86_400_000);
    const viaDates = await imports().status({ date: { start_date: start, end_date: end, format: 'DD/MM/YYYY' } });
    expect(viaDates.total_count).toBeGreaterThan(0);
    for (const format of [
      'YYYY-MM-DD',
      'YYYY/MM/DD',
      'DD/MM/YYYY',
      'DD-MM-YYYY',
      'DD-MM-YYYY hh:mm:ss',
      'DD/MM/YYYY hh:mm:ss',
      'YYYY-MM-DD hh:mm:ss',
      'YYYY/MM/DD hh:mm:ss',
    ] as const) {
      const page = await imports().status({ date: { start_date: start, end_date: end, format } });
      expect(page.status).toBe('success');
    }
    const literal = await imports().status({ date: { start_date: '14/11/2024', end_date: '14/11/2024', format: 'DD/MM/YYYY' } });
    expect(literal.status).toBe('success');
  });

  it.each([
    [{ offset: 0 }, 'offset'],
    [{ offset: 1.5 }, 'offset'],
    [{ offset: '2' }, 'offset'],
    [{ import_type: 'users' }, 'import_type'],
    [{ schedule_status: ['SUCCESSFUL', 'DONE'] }, 'schedule_status[1]'],
    [{ date: { start_date: '2024-11-14', end_date: '2024-11-14', format: 'YYYY.MM.DD' } }, 'date.format'],
    [{ date: { start_date: '14/11/2024', end_date: '2024-11-14', format: 'DD/MM/YYYY' } }, 'date.end_date'],
    [{ date: { start_date: '31/02/2024', end_date: '01/03/2024', format: 'DD/MM/YYYY' } }, 'date.start_date'],
    [{ date: { start_date: '01/01/2024', end_date: '15/02/2024', format: 'DD/MM/YYYY' } }, 'date'],
  ])('refuses %j before sending (%s)', async (filter, field) => {
    const before = stack.requests('fileImportStatus').length;
    const error = await rejection(imports().status(filter as never));
    expect(isValidationError(error)).toBe(true);
    expect(error.field).toBe(field);
    expect(stack.requests('fileImportStatus').length).toBe(before);
  });
});

describe('fileImports errors and retries (a read: safe to repeat)', () => {
  it('503 twice then 200: retried after Retry-After, resolves', async () => {
    const s = await startStack();
    try {
      s.emulator.setFaults({ statuses: [503], retryAfterSeconds: 0, count: 2, operations: ['fileImportStatus'] });
      const page = await imports(s).status();
      expect(page.data.length).toBe(50);
      expect(s.requests('fileImportStatus').map((r) => r.status)).toEqual([503, 503, 200]);
    } finally {
      await s.close();
    }
  });

  it('a connection reset upstream (proxy 502) is retried', async () => {
    const s = await startStack();
    try {
      s.emulator.setFaults({ statuses: ['reset'], count: 1, operations: ['fileImportStatus'] });
      await expect(imports(s).status()).resolves.toMatchObject({ status: 'success' });
      expect(s.requests('fileImportStatus').map((r) => r.status)).toEqual(['reset', 200]);
    } finally {
      await s.close();
    }
  });

  it('retries are bounded: after `retries` repeats the last 500 rejects, parsed from {title, description, code}', async () => {
    const s = await startStack();
    try {
      s.emulator.setFaults({ statuses: [500], count: 10, operations: ['fileImportStatus'] });
      const error = await rejection(imports(s, { retries: 2 }).status());
      expect(isHttpError(error) && error.status).toBe(500);
      expect(error.upstream.code).toMatch(/\w/);
      expect(error.upstream.message).toMatch(/unexpected/i);
      expect(error.upstream.requestId).toMatch(/^[A-Za-z]{8}$/);
      expect(s.requests('fileImportStatus').length).toBe(3);
    } finally {
      await s.close();
    }
  });

  it('429 with a Retry-After longer than maxRetryAfterMs: rejects at once with retryAfterMs and the parsed body', async () => {
    const s = await startStack();
    try {
      s.emulator.setFaults({ statuses: [429], retryAfterSeconds: 120, count: 1, operations: ['fileImportStatus'] });
      const error = await rejection(imports(s).status());
      expect(error.status).toBe(429);
      expect(error.retryAfterMs).toBe(120_000);
      expect(error.upstream.code).toBe('Rate Limits Exceeded');
      expect(error.body).toMatchObject({ status: 'fail', error: { type: 'Rate Limits Exceeded' } });
      expect(s.requests('fileImportStatus').length).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('a rotated data key: 401 {title, description} parsed, not retried', async () => {
    const s = await startStack();
    try {
      s.emulator.rotateKey('data');
      const error = await rejection(imports(s).status());
      expect(error.status).toBe(401);
      expect(error.upstream.code).toBe('AuthenticationInvalid');
      expect(error.upstream.message).toMatch(/APP_KEY/);
      expect(s.requests('fileImportStatus').length).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('the proxy refuses a caller without the admin token (403, standard data envelope)', async () => {
    const error = await rejection(createFileImports({ endpoint: stack.endpoint }).status());
    expect(error.status).toBe(403);
    expect(error.upstream.code).toMatch(/\w/);
  });
});

describe('fileImports.watch', () => {
  it('polls a live import until its terminal status, yielding rising progress; the last value is done', async () => {
    const name = `watch_partial_${Date.now()}`;
    stack.emulator.createFileImport({ import_name: name, total_files: 4, total_rows: 1000, duration_ms: 2500, final_status: 'PARTIAL_SUCCESS' });
    const seen: ImportProgress[] = [];
    for await (const progress of imports().watch(name, { intervalMs: 1250 })) seen.push(progress);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ import_name: name, status: 'PARTIAL_SUCCESS', done: true, total_rows: 1000, processed_rows: 900, total_files: 4 });
    expect(seen.slice(0, -1).every((p) => !p.done && ['QUEUED', 'PROCESSING'].includes(p.status))).toBe(true);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.processed_rows).toBeGreaterThanOrEqual(seen[i - 1]!.processed_rows);
    expect(last.fraction).toBeCloseTo(0.9);
  });

  it('an already-finished import yields once', async () => {
    const client = createClient({ endpoint: stack.endpoint, headers });
    const first = (await client.fileImports.status({ schedule_status: 'FAILED' })).data[0]!;
    const seen: ImportProgress[] = [];
    for await (const progress of client.fileImports.watch(first.import_name)) seen.push(progress);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ status: 'FAILED', done: true });
  });

  it('stops with AbortedError when the signal fires between polls; no further request', async () => {
    const name = `watch_abort_${Date.now()}`;
    stack.emulator.createFileImport({ import_name: name, duration_ms: 600_000 });
    const controller = new AbortController();
    const seen: ImportProgress[] = [];
    const error = await rejection(
      (async () => {
        for await (const progress of imports().watch(name, { signal: controller.signal, intervalMs: 60_000 })) {
          seen.push(progress);
          controller.abort();
        }
      })(),
    );
    expect(isAbortedError(error)).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('an unknown import name is a ValidationError naming importName', async () => {
    const error = await rejection(imports().watch('no_such_import').next());
    expect(isValidationError(error) && error.field).toBe('importName');
  });
});
