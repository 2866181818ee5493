import request from 'supertest';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { createImport, newAccount, waitForImport } from './support/imports';
import { Household, startTestApp, TestApp } from './support/test-app';

// What tells one import from another and what can be done with it: why it cannot publish, its file, account, dates
// and rows, discarding it, a second publish, files of the wrong kind, and the cell of a date that did not read.

describe('imports: telling them apart, why one cannot publish, discarding one', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const get = (h: Household, path: string) => request(t.server).get(`/api/v1/imports${path}`).set('X-Api-Key', h.apiKey);
  const discard = (h: Household, id: string) => request(t.server).delete(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey);
  const publish = (h: Household, id: string) => request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey);
  const upload = (h: Household) => request(t.server).post('/api/v1/imports').set('X-Api-Key', h.apiKey);
  const day = (i: number) => `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
  const csvOf = (rows: number) => ['date,amount,name', ...Array.from({ length: rows }, (_, i) => `${day(i)},-${(i % 90) + 1}.00,Shop ${i}`)].join('\n');

  describe('why an import cannot publish', () => {
    it('publishes 10,001 rows by default, and says at the detail when an import has more rows than its type may publish', async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h);
      // Over the old default of 10,000: publishable now (the default is 100,000).
      const big = await createImport(t.server, h.apiKey, { raw_file_content: csvOf(10_001), account_id: account }).expect(201);
      expect(big.body.data).toMatchObject({ stats: { rows_count: 10_001, invalid_rows_count: 0 }, status_detail: { publishable: true }, not_publishable_reason: null });

      // AccountImport publishes at most 50 rows: every row is valid, and the detail says what really stops it.
      const accounts = ['name,balance,currency', ...Array.from({ length: 51 }, (_, i) => `Account ${i},${i}.00,USD`)].join('\n');
      const many = await createImport(t.server, h.apiKey, { type: 'AccountImport', raw_file_content: accounts }).expect(201);
      expect(many.body.data).toMatchObject({
        stats: { rows_count: 51, valid_rows_count: 51, invalid_rows_count: 0 },
        status_detail: { cleaned: true, publishable: false },
        not_publishable_reason: { code: 'max_row_count_exceeded', message: expect.stringContaining('51 rows') },
      });
      expect(many.body.data.not_publishable_reason.message).toContain('at most 50');
      const shown = await get(h, `/${many.body.data.id}`).expect(200);
      expect(shown.body.data.not_publishable_reason).toEqual(many.body.data.not_publishable_reason);
      const refused = await publish(h, many.body.data.id).expect(422);
      expect(refused.body).toMatchObject({ error: 'max_row_count_exceeded', import_id: many.body.data.id });
    });

    it('names rows with errors, a missing account and unmapped values as the reason, and none once publishable', async () => {
      const h = await t.newHousehold();
      const invalid = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name,account\nsmudged,-1.00,A,Checking\n2024-01-02,-2.00,B,Checking' }).expect(201);
      expect(invalid.body.data.not_publishable_reason).toEqual({ code: 'rows_with_errors', message: expect.stringContaining('1 row has errors') });
      const qif = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: '!Type:Bank\nD01/16/2024\nT-12.50\nPCafe\n^' }).expect(201);
      expect(qif.body.data.not_publishable_reason).toEqual({ code: 'account_required', message: expect.stringContaining('account') });
      // An account the rows name, set to be neither chosen nor created.
      const named = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name,account\n2024-01-02,-2.00,B,Checking' }).expect(201);
      const unmapped = await request(t.server)
        .patch(`/api/v1/imports/${named.body.data.id}`)
        .set('X-Api-Key', h.apiKey)
        .send({ mappings: [{ type: 'account', key: 'Checking', create_when_empty: false }] })
        .expect(200);
      expect(unmapped.body.data.not_publishable_reason).toEqual({ code: 'unassigned_mappings', message: expect.stringContaining('1 value is not mapped') });
      const fine = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name\n2024-01-02,-2.00,B', account_id: await newAccount(t, h) }).expect(201);
      expect(fine.body.data).toMatchObject({ status_detail: { publishable: true }, not_publishable_reason: null });
    });
  });

  describe('file name, account, dates and rows of each import', () => {
    it('keeps the uploaded file name (without its path) and shows pasted text as null', async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h, 'Everyday');
      const csv = 'date,amount,name\n2024-03-05,-1.00,A\nsmudged,-3.00,Bad\n2024-01-31,-2.00,B\n2024-02-10,-4.00,C';
      const uploaded = await upload(h)
        .field('account_id', account)
        .attach('file', Buffer.from(csv), { filename: 'C:\\Users\\me\\Downloads\\bank march.csv', contentType: 'text/csv' })
        .expect(201);
      expect(uploaded.body.data).toMatchObject({
        file_name: 'bank march.csv',
        account_id: account,
        account_name: 'Everyday',
        // The dates of the rows that have one: the unreadable date is not among them.
        first_row_date: '2024-01-31',
        last_row_date: '2024-03-05',
        stats: { rows_count: 4 },
      });
      const long = await upload(h).attach('file', Buffer.from(csv), { filename: `${'x'.repeat(300)}.csv`, contentType: 'text/csv' }).field('account_id', account).expect(201);
      expect(long.body.data.file_name).toBe('x'.repeat(255)); // as long as the column holds
      await discard(h, long.body.data.id).expect(204);
      const pasted = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name,account\n2024-06-01,-1.00,A,Savings' }).expect(201);
      expect(pasted.body.data).toMatchObject({ file_name: null, account_id: null, account_name: null, first_row_date: '2024-06-01', last_row_date: '2024-06-01' });

      const list = await get(h, '').expect(200);
      const brief = (d: Record<string, unknown>) => [d.file_name, d.account_name, d.first_row_date, d.last_row_date, (d.stats as { rows_count: number }).rows_count];
      expect(list.body.data.map(brief)).toEqual([
        [null, null, '2024-06-01', '2024-06-01', 1],
        ['bank march.csv', 'Everyday', '2024-01-31', '2024-03-05', 4],
      ]);

      // Skipping rows reads them again: the dates follow.
      const skipped = await request(t.server).patch(`/api/v1/imports/${uploaded.body.data.id}`).set('X-Api-Key', h.apiKey).send({ skip_rows: [3] }).expect(200);
      expect(skipped.body.data).toMatchObject({ first_row_date: '2024-02-10', last_row_date: '2024-03-05', stats: { rows_count: 3 } });
    });

    it('shows the cell of a date that did not read, next to the error', async () => {
      const h = await t.newHousehold();
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name\n31/02/2024,-1.00,Bad\n2024-01-02,-2.00,Good', account_id: await newAccount(t, h) }).expect(201);
      const rows = await get(h, `/${created.body.data.id}/rows`).expect(200);
      expect(rows.body.data.map((r: { fields: Record<string, unknown>; errors: string[] }) => [r.fields.date, r.fields.raw_date, r.errors])).toEqual([
        [null, '31/02/2024', ["Row 1: date '31/02/2024' does not match the date format %Y-%m-%d"]],
        ['2024-01-02', undefined, []],
      ]);
    });
  });

  describe('DELETE /imports/{id}', () => {
    const auditOf = (id: string) => t.dataSource.query(`SELECT event, family_id, user_id, details FROM audit_logs WHERE details->>'import_id' = $1`, [id]);
    const stored = async (id: string) => {
      const [row] = await t.dataSource.query(
        `SELECT (SELECT count(*)::int FROM imports WHERE id = $1) AS imports, (SELECT count(*)::int FROM import_rows WHERE import_id = $1) AS rows,
                (SELECT count(*)::int FROM import_mappings WHERE import_id = $1) AS mappings`,
        [id],
      );
      return row;
    };

    it('discards a stored import with its rows and mappings, and records who did', async () => {
      const h = await t.newHousehold();
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name,account,category\n2024-01-02,-2.00,B,Checking,Food' }).expect(201);
      const id = created.body.data.id;
      expect(await stored(id)).toEqual({ imports: 1, rows: 1, mappings: 2 });
      await discard(h, id).expect(204);
      expect(await stored(id)).toEqual({ imports: 0, rows: 0, mappings: 0 });
      expect((await get(h, `/${id}`).expect(404)).body.error).toBe('record_not_found');
      expect(await auditOf(id)).toEqual([
        { event: 'import_discarded', family_id: h.familyId, user_id: h.userId, details: { import_id: id, type: 'TransactionImport', status: 'pending', file_name: null, rows_count: 1 } },
      ]);
      // The family's data is as it was: the account and category the rows named were never created.
      expect(await t.dataSource.query(`SELECT name FROM accounts WHERE family_id = $1 UNION ALL SELECT name FROM categories WHERE family_id = $1`, [h.familyId])).toEqual([]);
    });

    it("answers another family's import, an unknown id and a read key as any other route does, and leaves the import", async () => {
      const h = await t.newHousehold();
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name,account\n2024-01-02,-2.00,B,Checking' }).expect(201);
      const id = created.body.data.id;
      const other = await t.newHousehold();
      expect((await discard(other, id).expect(404)).body.error).toBe('record_not_found');
      await discard(h, '00000000-0000-4000-8000-000000000000').expect(404);
      await discard(h, 'not-a-uuid').expect(404);
      // A read key of the same user may look, not discard.
      const readKey = await t.app.get(ApiKeysService).create({ userId: h.userId, name: 'read', scope: 'read' });
      expect((await request(t.server).delete(`/api/v1/imports/${id}`).set('X-Api-Key', readKey.key).expect(403)).body.error).toBe('insufficient_scope');
      expect(await stored(id)).toEqual({ imports: 1, rows: 1, mappings: 1 });
      expect(await auditOf(id)).toEqual([]);
    });

    it('refuses a published, publishing or reverting import with 409 saying to revert first, and discards a failed one with nothing published', async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h);
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name\n2024-01-02,-2.00,B', account_id: account, publish: 'true' }).expect(201);
      const id = created.body.data.id;
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
      const published = await discard(h, id).expect(409);
      expect(published.body).toMatchObject({ error: 'import_published', message: expect.stringContaining('revert it first') });

      for (const [status, error] of [['importing', 'import_publishing'], ['reverting', 'import_reverting'], ['revert_failed', 'import_published']]) {
        await t.dataSource.query(`UPDATE imports SET status = $2 WHERE id = $1`, [id, status]);
        expect({ status, error: (await discard(h, id)).body.error }).toEqual({ status, error });
      }
      // Failed after committing rows: they are published, so it is reverted first.
      await t.dataSource.query(`UPDATE imports SET status = 'failed', published_through_row = 1 WHERE id = $1`, [id]);
      expect((await discard(h, id).expect(409)).body.error).toBe('import_published');
      expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM entries WHERE import_id = $1`, [id])).toEqual([{ n: 1 }]);
      expect(await auditOf(id)).toEqual([]);

      // Failed before any row was committed: nothing of it is published, it goes.
      const failed = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name\n2024-01-03,-2.00,C', account_id: account }).expect(201);
      await t.dataSource.query(`UPDATE imports SET status = 'failed', error = 'boom' WHERE id = $1`, [failed.body.data.id]);
      // An account its mappings created that the failed publish could not remove: it goes with the import.
      await t.dataSource.query(
        `INSERT INTO accounts (family_id, name, accountable_type, classification, currency, import_id) VALUES ($1, 'Left over', 'Depository', 'asset', 'USD', $2)`,
        [h.familyId, failed.body.data.id],
      );
      await discard(h, failed.body.data.id).expect(204);
      expect(await stored(failed.body.data.id)).toEqual({ imports: 0, rows: 0, mappings: 0 });
      expect(await t.dataSource.query(`SELECT name FROM accounts WHERE family_id = $1 ORDER BY name`, [h.familyId])).toEqual([{ name: 'Checking' }]);
    });
  });

  describe('a second publish', () => {
    it('answers 409 saying the import is already publishing, or published', async () => {
      const h = await t.newHousehold();
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name\n2024-01-02,-2.00,B', account_id: await newAccount(t, h) }).expect(201);
      const id = created.body.data.id;
      await t.dataSource.query(`UPDATE imports SET status = 'importing' WHERE id = $1`, [id]);
      const publishing = await publish(h, id).expect(409);
      expect(publishing.body).toMatchObject({ error: 'import_publishing', message: expect.stringContaining('already publishing') });
      await t.dataSource.query(`UPDATE imports SET status = 'pending' WHERE id = $1`, [id]);
      await publish(h, id).expect(202);
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
      const again = await publish(h, id).expect(409);
      expect(again.body).toMatchObject({ error: 'import_published', message: expect.stringContaining('published') });
      expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM entries WHERE import_id = $1`, [id])).toEqual([{ n: 1 }]);
    });
  });

  describe('files of the wrong kind', () => {
    it('refuses a PNG, or a spreadsheet it cannot read, sent for a CSV type with 422 naming what it is and what to do', async () => {
      const h = await t.newHousehold();
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);
      const asCsv = await upload(h).attach('file', png, { filename: 'receipt.csv', contentType: 'text/csv' }).expect(422);
      expect(asCsv.body).toMatchObject({ error: 'invalid_file_type', message: expect.stringContaining('PNG image') });
      // An XLSX is read as its table (imports-spreadsheets.e2e-spec.ts); the first bytes of one alone are no workbook.
      const xlsx = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]), Buffer.from('[Content_Types].xml')]);
      for (const contentType of ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.ms-excel']) {
        const sheet = await upload(h).attach('file', xlsx, { filename: 'statement.xlsx', contentType }).expect(422);
        expect(sheet.body).toMatchObject({ error: 'invalid_xlsx', message: expect.stringMatching(/^"statement\.xlsx" is incomplete or damaged/) });
      }
      const ods = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]), Buffer.alloc(22), Buffer.from('mimetypeapplication/vnd.oasis.opendocument.spreadsheet')]);
      const openDocument = await upload(h).attach('file', ods, { filename: 'statement.ods', contentType: 'application/octet-stream' }).expect(422);
      expect(openDocument.body).toMatchObject({ error: 'invalid_file_type', message: expect.stringMatching(/spreadsheet.*export.*CSV/i) });
      const xls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
      const old = await upload(h).attach('file', xls, { filename: 'statement.xls', contentType: 'application/vnd.ms-excel' }).expect(422);
      expect(old.body).toMatchObject({ error: 'invalid_file_type', message: expect.stringMatching(/Excel 97-2003 workbook.*save it as \.xlsx.*or as CSV/) });
      expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM imports WHERE family_id = $1`, [h.familyId])).toEqual([{ n: 0 }]);
    });
  });
});
