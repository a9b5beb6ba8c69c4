// Conformance: POST /v1.0/data/fileimports/import/status — one accepted and one refused per rule.
import { describe, expect, it } from 'vitest';
import { admin, basic, call, KEYS, start, useEmulator } from './helpers.ts';

let t = Date.parse('2026-03-15T12:00:00Z');
const h = useEmulator({ now: () => t, limits: { fileImportRequestsPerMinute: 100_000 } }, { reset: false });

const failure = (errorType: string, sentence: string, detail: string) => ({
  status: 400,
  body: { status: 'FAILURE', error_type: errorType, message: `${sentence} (${detail})` },
});
const DATE_SENTENCE = "The provided date format is either incorrect or doesn't match the entered dates. Please ensure both the dates and the format are valid.";
const OFFSET_SENTENCE = 'The offset value you have provided is not valid. Please review and correct the offset.';
const RANGE_SENTENCE = 'Please note that only imports with a date difference of 30 can be displayed. Kindly adjust the dates accordingly.';
const CASE_BODY = { status: 400, body: { success: false, status_code: '400 Bad Request', data: 'Unable to process the request' } };

describe('file-import status: seeded data', () => {
  it('at least 120 imports spanning every type, source and status, with consistent counters and timestamps', async () => {
    const all: Array<Record<string, any>> = [];
    for (let offset = 1; ; offset++) {
      const { body } = await call(h, 'fileImportStatus', { offset });
      all.push(...body.data);
      if (!body.more_files) break;
    }
    expect(all.length).toBeGreaterThanOrEqual(120);
    for (const type of ['USERS', 'EVENTS', 'AUX_DATA']) {
      for (const source of ['SFTP', 'S3', 'CSV']) {
        for (const status of ['SUCCESSFUL', 'FAILED', 'PARTIAL_SUCCESS', 'SCHEDULED', 'PROCESSING', 'QUEUED', 'ARCHIVED']) {
          expect(all.some((r) => r.import_type === type && r.import_source === source && r.status === status)).toBe(true);
        }
      }
    }
    const stamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
    for (const r of all) {
      expect(r.processed_files).toBeLessThanOrEqual(r.total_files);
      expect(r.processed_rows).toBeLessThanOrEqual(r.total_rows);
      const complete = r.processed_files === r.total_files && r.processed_rows === r.total_rows;
      expect(complete).toBe(['SUCCESSFUL', 'ARCHIVED'].includes(r.status));
      if (r.status === 'QUEUED' || r.status === 'SCHEDULED') expect([r.processed_files, r.processed_rows, r.last_run_at]).toEqual([0, 0, null]);
      expect(r.created_at).toMatch(stamp);
      if (r.last_run_at) {
        expect(r.last_run_at).toMatch(stamp);
        expect(r.last_run_at >= r.created_at).toBe(true);
        expect(Date.parse(`${r.last_run_at}Z`)).toBeLessThanOrEqual(t);
      }
      if (r.next_scheduled_at) expect(Date.parse(`${r.next_scheduled_at}Z`)).toBeGreaterThan(t);
      expect(r.last_run_status).toBe(r.status);
      expect(Object.keys(r).sort()).toEqual(
        [
          'import_id',
          'import_name',
          'last_run_status',
          'import_type',
          'schedule_type',
          'import_source',
          'custom_segment_config',
          'aux_data_config',
          'total_files',
          'processed_files',
          'total_rows',
          'processed_rows',
          'created_at',
          'last_run_at',
          'next_scheduled_at',
          'created_by_email',
          'status',
          'time_zone',
        ].sort(),
      );
    }
    expect(new Set(all.map((r) => r.import_id)).size).toBe(all.length);
  });
});

describe('file-import status: paging', () => {
  it('50 per page by offset, with total_count and more_files', async () => {
    const pages: any[] = [];
    for (const offset of [1, 2, 3]) pages.push((await call(h, 'fileImportStatus', { offset })).body);
    expect(pages.map((p) => [p.offset, p.data.length, p.more_files])).toEqual([
      [1, 50, true],
      [2, 50, true],
      [3, pages[0].total_count - 100, false],
    ]);
    expect(pages.every((p) => p.total_count === pages[0].total_count)).toBe(true);
    const ids = pages.flatMap((p) => p.data.map((r: { import_id: string }) => r.import_id));
    expect(new Set(ids).size).toBe(ids.length);
    // Past the end: an empty page.
    expect((await call(h, 'fileImportStatus', { offset: 99 })).body).toMatchObject({ status: 'success', data: [], offset: 99, more_files: false });
  });

  it('offset: integer ≥ 1 or a digit string; omitted means 1', async () => {
    expect((await call(h, 'fileImportStatus', { offset: '2' })).body.offset).toBe(2);
    expect((await call(h, 'fileImportStatus', {})).body.offset).toBe(1);
    for (const offset of [0, -1, 1.5, 'two']) {
      expect(await call(h, 'fileImportStatus', { offset })).toMatchObject(failure('Invalid Offset Value', OFFSET_SENTENCE, 'offset must be an integer of at least 1'));
    }
  });
});

describe('file-import status: filters', () => {
  it('each filter as a single value (schema) or a list (examples)', async () => {
    const single = (await call(h, 'fileImportStatus', { import_type: 'USERS', file_source: 'S3' })).body;
    const list = (await call(h, 'fileImportStatus', { import_type: ['USERS'], file_source: ['S3'] })).body;
    expect(single.total_count).toBe(14);
    expect(list).toEqual(single);
    expect(single.data.every((r: any) => r.import_type === 'USERS' && r.import_source === 'S3')).toBe(true);
    const two = (await call(h, 'fileImportStatus', { schedule_status: ['FAILED', 'QUEUED'], schedule_type: 'ONETIME' })).body;
    expect(two.data.every((r: any) => ['FAILED', 'QUEUED'].includes(r.status) && r.schedule_type === 'ONETIME')).toBe(true);
    expect(two.total_count).toBeGreaterThanOrEqual(18);
    const named = (await call(h, 'fileImportStatus', { import_name: single.data[0].import_name })).body;
    expect(named.total_count).toBe(1);
  });

  it('enum values are case-sensitive: a mismatch gets its own 400 body', async () => {
    expect(await call(h, 'fileImportStatus', { import_type: 'users' })).toMatchObject(CASE_BODY);
    expect(await call(h, 'fileImportStatus', { schedule_status: ['SUCCESSFUL', 'Failed'] })).toMatchObject(CASE_BODY);
  });

  it('all eight date formats are read', async () => {
    const cases: Array<[string, string, string]> = [
      ['YYYY-MM-DD', '2026-03-01', '2026-03-15'],
      ['YYYY/MM/DD', '2026/03/01', '2026/03/15'],
      ['DD/MM/YYYY', '01/03/2026', '15/03/2026'],
      ['DD-MM-YYYY', '01-03-2026', '15-03-2026'],
      ['DD-MM-YYYY hh:mm:ss', '01-03-2026 00:00:00', '15-03-2026 23:59:59'],
      ['DD/MM/YYYY hh:mm:ss', '01/03/2026 00:00:00', '15/03/2026 23:59:59'],
      ['YYYY-MM-DD hh:mm:ss', '2026-03-01 00:00:00', '2026-03-15 23:59:59'],
      ['YYYY/MM/DD hh:mm:ss', '2026/03/01 00:00:00', '2026/03/15 23:59:59'],
    ];
    const counts = new Set<number>();
    for (const [format, start_date, end_date] of cases) {
      const res = await call(h, 'fileImportStatus', { date: { start_date, end_date, format } });
      expect(res.status).toBe(200);
      counts.add(res.body.total_count);
      for (const r of res.body.data) {
        const at = Date.parse(`${r.last_run_at ?? r.created_at}Z`);
        expect(at).toBeGreaterThanOrEqual(Date.parse('2026-03-01T00:00:00Z'));
        expect(at).toBeLessThan(Date.parse('2026-03-16T00:00:00Z'));
      }
    }
    // Same range in eight spellings: the same answer.
    expect(counts.size).toBe(1);
    expect([...counts][0]).toBeGreaterThan(0);
  });

  it('a date that does not match its format, or an unknown format, is "Invalid Date format"', async () => {
    expect(await call(h, 'fileImportStatus', { date: { start_date: '2026-03-01', end_date: '2026-03-02', format: 'DD/MM/YYYY' } })).toMatchObject(
      failure('Invalid Date format', DATE_SENTENCE, 'date.start_date must be a date in the layout DD/MM/YYYY'),
    );
    expect(await call(h, 'fileImportStatus', { date: { start_date: '31/02/2026', end_date: '01/03/2026', format: 'DD/MM/YYYY' } })).toMatchObject(
      failure('Invalid Date format', DATE_SENTENCE, 'date.start_date must be a date in the layout DD/MM/YYYY'),
    );
    const res = await call(h, 'fileImportStatus', { date: { start_date: '2026-03-01', end_date: '2026-03-02', format: 'MM/DD/YYYY' } });
    expect(res.status).toBe(400);
    expect(res.body.error_type).toBe('Invalid Date format');
  });

  it('the range spans at most 30 days', async () => {
    expect((await call(h, 'fileImportStatus', { date: { start_date: '2026-02-13', end_date: '2026-03-15', format: 'YYYY-MM-DD' } })).status).toBe(200);
    expect(await call(h, 'fileImportStatus', { date: { start_date: '2026-02-12', end_date: '2026-03-15', format: 'YYYY-MM-DD' } })).toMatchObject(
      failure('Difference exceeds 30 days', RANGE_SENTENCE, 'date must span at most 30 days'),
    );
  });
});

describe('file-import status: auth and limits', () => {
  it('401 bodies: HeaderMissing, HeaderMismatch, AuthenticationInvalid', async () => {
    expect(await call(h, 'fileImportStatus', {}, { headers: { 'svc-appkey': undefined } })).toMatchObject({
      status: 401,
      body: { title: 'HeaderMissing', description: 'SVC-APPKEY is missing in Header' },
    });
    expect(await call(h, 'fileImportStatus', {}, { headers: { 'svc-appkey': 'OTHER' } })).toMatchObject({
      status: 401,
      body: { title: 'HeaderMismatch', description: "SVC-APPKEY doesn't match the Username (APP_KEY) used in Basic Auth authorization" },
    });
    const wrong = await call(h, 'fileImportStatus', {}, { headers: { authorization: basic(KEYS.personalize) } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      title: 'AuthenticationInvalid',
      description: "Password (APP_KEY) doesn't match the one available on the dashboard. Kindly ensure the same APP_KEY available on the dashboard is used.",
    });
  });

  it('50 requests per minute, then 429 with Retry-After', async () => {
    let now = Date.parse('2026-03-01T00:00:00Z');
    const limited = await start({ now: () => now });
    try {
      for (let i = 0; i < 50; i++) expect((await call(limited, 'fileImportStatus', {})).status).toBe(200);
      const refused = await call(limited, 'fileImportStatus', {});
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        status: 'fail',
        error: { message: 'Rate limits exceeded, please try after some time', type: 'Rate Limits Exceeded', request_id: expect.any(String) },
      });
      expect(refused.headers.get('retry-after')).toBe('60');
      now += 60_000;
      expect((await call(limited, 'fileImportStatus', {})).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('file-import status: live imports (admin)', () => {
  it('moves QUEUED → PROCESSING → final status, counters rising and never falling', async () => {
    const created = await admin(h, 'file-imports', { body: { import_name: 'nightly_users', total_files: 10, total_rows: 1000, duration_ms: 10_000 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ import_name: 'nightly_users', status: 'QUEUED', processed_files: 0, processed_rows: 0 });
    const seen: Array<[string, number, number]> = [];
    const start = t;
    for (const step of [0, 500, 1000, 3000, 5000, 8000, 9999, 10_000, 20_000]) {
      t = start + step;
      const { body } = await call(h, 'fileImportStatus', { import_name: 'nightly_users' });
      const r = body.data[0];
      seen.push([r.status, r.processed_files, r.processed_rows]);
    }
    t = start;
    expect(seen.map((s) => s[0])).toEqual(['QUEUED', 'QUEUED', 'PROCESSING', 'PROCESSING', 'PROCESSING', 'PROCESSING', 'PROCESSING', 'SUCCESSFUL', 'SUCCESSFUL']);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]![1]).toBeGreaterThanOrEqual(seen[i - 1]![1]);
      expect(seen[i]![2]).toBeGreaterThanOrEqual(seen[i - 1]![2]);
    }
    expect(seen.at(-1)).toEqual(['SUCCESSFUL', 10, 1000]);
  });

  it('a failing import stops short of its totals', async () => {
    await admin(h, 'file-imports', { body: { import_name: 'broken_events', import_type: 'EVENTS', final_status: 'FAILED', duration_ms: 0 } });
    const r = (await call(h, 'fileImportStatus', { import_name: 'broken_events' })).body.data[0];
    expect(r.status).toBe('FAILED');
    expect(r.processed_rows).toBeLessThan(r.total_rows);
  });

  it('refuses a bad spec naming the field', async () => {
    expect(await admin(h, 'file-imports', { body: { import_name: 'x', final_status: 'DONE' } })).toMatchObject({
      status: 400,
      body: { error: 'final_status must be one of SUCCESSFUL, FAILED, PARTIAL_SUCCESS, ARCHIVED' },
    });
  });
});
