import request from 'supertest';
import { createImport, newAccount } from './support/imports';
import { Household, startTestApp, TestApp } from './support/test-app';

// GET /imports/{id}/rows?errors=only: the rows with errors alone, paged among themselves, so that one bad row of a
// long file is found on page 1 rather than wherever it sits in the file.

describe('imports: rows with errors only', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const rows = (h: Household, id: string, query: string) => request(t.server).get(`/api/v1/imports/${id}/rows${query}`).set('X-Api-Key', h.apiKey);

  /** 60 rows, of which rows 7, 45 and 58 have a date no format reads. */
  async function importWithBadRows(h: Household): Promise<string> {
    const bad = new Set([7, 45, 58]);
    const lines = Array.from({ length: 60 }, (_, i) => `${bad.has(i + 1) ? 'smudged' : `2024-03-${String((i % 28) + 1).padStart(2, '0')}`},-${i + 1}.00,Row ${i + 1}`);
    const account = await newAccount(t, h);
    const created = await createImport(t.server, h.apiKey, { raw_file_content: ['date,amount,name', ...lines].join('\n'), account_id: account, date_format: '%Y-%m-%d' }).expect(201);
    expect(created.body.data.stats).toMatchObject({ rows_count: 60, invalid_rows_count: 3 });
    return created.body.data.id;
  }

  it('pages through the rows with errors alone, in file order, with their own page count', async () => {
    const h = await t.newHousehold();
    const id = await importWithBadRows(h);
    const first = await rows(h, id, '?errors=only&per_page=2').expect(200);
    expect(first.body.data.map((r: { row_number: number; valid: boolean; fields: { name: string } }) => [r.row_number, r.valid, r.fields.name])).toEqual([
      [7, false, 'Row 7'],
      [45, false, 'Row 45'],
    ]);
    expect(first.body.data[0].errors).toEqual(["Row 7: date 'smudged' does not match the date format %Y-%m-%d"]);
    expect(first.body.meta).toEqual({ current_page: 1, next_page: 2, prev_page: null, total_pages: 2, total_count: 3, per_page: 2 });
    const second = await rows(h, id, '?errors=only&per_page=2&page=2').expect(200);
    expect({ rows: second.body.data.map((r: { row_number: number }) => r.row_number), meta: second.body.meta }).toEqual({
      rows: [58],
      meta: { current_page: 2, next_page: null, prev_page: 1, total_pages: 2, total_count: 3, per_page: 2 },
    });
    // Without the filter (or with it blank, as a form's empty choice sends it) every row, as before.
    for (const query of ['?per_page=2', '?errors=&per_page=2']) {
      const all = await rows(h, id, query).expect(200);
      expect({ rows: all.body.data.map((r: { row_number: number }) => r.row_number), total: all.body.meta.total_count }).toEqual({ rows: [1, 2], total: 60 });
    }
  });

  it('answers an import without errors with no rows, and another family\'s import with 404', async () => {
    const h = await t.newHousehold();
    const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name\n2024-03-01,-1.00,Fine', account_id: await newAccount(t, h) }).expect(201);
    expect(created.body.data.stats.invalid_rows_count).toBe(0);
    const res = await rows(h, created.body.data.id, '?errors=only').expect(200);
    expect(res.body).toEqual({ data: [], meta: { current_page: 1, next_page: null, prev_page: null, total_pages: 1, total_count: 0, per_page: 25 } });
    const other = await t.newHousehold();
    expect((await rows(other, created.body.data.id, '?errors=only').expect(404)).body.error).toBe('record_not_found');
  });

  it('refuses any other value of errors, or errors given twice, with a 422 naming it', async () => {
    const h = await t.newHousehold();
    const id = await importWithBadRows(h);
    const value = 'errors must be only (just the rows with errors), or left out for every row';
    for (const [query, message] of [['?errors=true', value], ['?errors=ONLY', value], ['?errors=only&errors=only', 'errors must be given once']]) {
      const res = await rows(h, id, query);
      expect({ query, status: res.status, body: res.body }).toEqual({ query, status: 422, body: { error: 'validation_failed', message, errors: [message] } });
    }
  });

  it('reads the rows with errors of a large import through an index, not the whole import', async () => {
    const h = await t.newHousehold();
    const id = await importWithBadRows(h);
    // A large import's worth of valid rows, added to this one directly: parsing 200,000 rows would only slow the test.
    await t.dataSource.query(
      `INSERT INTO import_rows (import_id, source_row_number, "values") SELECT $1, n, '{"name": "filler"}' FROM generate_series(61, 200000) AS n`,
      [id],
    );
    await t.dataSource.query(`ANALYZE import_rows`);
    const plan = async (sql: string) => ((await t.dataSource.query(`EXPLAIN (FORMAT JSON) ${sql}`, [id])) as Array<{ 'QUERY PLAN': unknown }>)[0]['QUERY PLAN'];
    const where = `FROM import_rows WHERE import_id = $1 AND errors <> '[]'::jsonb`;
    for (const sql of [`SELECT source_row_number ${where} ORDER BY source_row_number LIMIT 25`, `SELECT count(*) ${where}`]) {
      expect(JSON.stringify(await plan(sql))).toContain('"Index Name":"import_rows_with_errors"');
    }
    const res = await rows(h, id, '?errors=only').expect(200);
    expect({ rows: res.body.data.map((r: { row_number: number }) => r.row_number), total: res.body.meta.total_count }).toEqual({ rows: [7, 45, 58], total: 3 });
  });
});
