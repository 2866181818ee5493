import request from 'supertest';
import { createImport, newAccount, waitForImport } from './support/imports';
import { Household, startTestApp, TestApp } from './support/test-app';

// PATCH /imports/{id} skip_rows: source rows left out of an import, so that one row that cannot be fixed no longer
// keeps the rest from publishing. Rows are numbered as GET /imports/{id}/rows numbers them (row_number).

describe('imports: skip_rows', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const patch = (h: Household, id: string, body: unknown) => request(t.server).patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send(body as object);
  const show = async (h: Household, id: string) => (await request(t.server).get(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).expect(200)).body.data;
  const publish = (h: Household, id: string) => request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey);
  const rows = async (h: Household, id: string) =>
    (await request(t.server).get(`/api/v1/imports/${id}/rows?per_page=100`).set('X-Api-Key', h.apiKey).expect(200)).body.data as Array<{
      row_number: number;
      valid: boolean;
      errors: string[];
      fields: Record<string, unknown>;
    }>;
  const entries = (importId: string): Promise<Array<{ name: string; amount: number }>> =>
    t.dataSource.query(`SELECT name, amount_minor::int AS amount FROM entries WHERE import_id = $1 AND entryable_type = 'Transaction' ORDER BY date, name, amount_minor`, [importId]);

  /** Three rows, the second with a date no format reads. */
  const JUNK_DATE_CSV = 'date,amount,name\n2024-03-01,-10.00,Grocer\n31/31/2024,-5.00,Junk\n2024-03-03,-7.00,Cafe';

  async function junkImport(h: Household) {
    const account = await newAccount(t, h);
    const created = await createImport(t.server, h.apiKey, { raw_file_content: JUNK_DATE_CSV, account_id: account, date_format: '%Y-%m-%d' }).expect(201);
    expect(created.body.data).toMatchObject({ skip_rows: [], stats: { rows_count: 3, invalid_rows_count: 1 }, status_detail: { publishable: false } });
    return created.body.data.id as string;
  }

  it('publishes the other rows once the unreadable one is skipped; other PATCHes keep it skipped', async () => {
    const h = await t.newHousehold();
    const id = await junkImport(h);
    const refused = await publish(h, id).expect(422);
    expect(refused.body).toMatchObject({ error: 'not_publishable', errors: expect.arrayContaining(['1 rows are invalid']) });

    const skipped = await patch(h, id, { skip_rows: [2] }).expect(200);
    expect(skipped.body.data).toMatchObject({
      skip_rows: [2],
      stats: { rows_count: 2, valid_rows_count: 2, invalid_rows_count: 0 },
      status_detail: { publishable: true },
    });
    expect((await rows(h, id)).map((r) => [r.row_number, r.fields.name, r.valid])).toEqual([[1, 'Grocer', true], [3, 'Cafe', true]]);

    // Reconfiguring parses the file again, still without row 2.
    const renamed = await patch(h, id, { signage_convention: 'inflows_negative' }).expect(200);
    expect(renamed.body.data).toMatchObject({ skip_rows: [2], stats: { rows_count: 2, invalid_rows_count: 0 }, configuration: { signage_convention: 'inflows_negative' } });
    await patch(h, id, { signage_convention: 'inflows_positive' }).expect(200);
    expect((await rows(h, id)).map((r) => r.row_number)).toEqual([1, 3]);

    await publish(h, id).expect(202);
    expect(await waitForImport(t.server, h.apiKey, id)).toMatchObject({ status: 'complete', skip_rows: [2] });
    expect(await entries(id)).toEqual([{ name: 'Grocer', amount: 1000 }, { name: 'Cafe', amount: 700 }]);

    // Published: the list can no longer change, as with any PATCH.
    const locked = await patch(h, id, { skip_rows: [] }).expect(409);
    expect(locked.body.error).toBe('import_not_editable');
    expect((await show(h, id)).skip_rows).toEqual([2]);
  });

  it('replaces the list on each PATCH, stores it sorted once per row, and [] includes every row again', async () => {
    const h = await t.newHousehold();
    const id = await junkImport(h);
    expect((await patch(h, id, { skip_rows: [3, 2, 3] }).expect(200)).body.data).toMatchObject({ skip_rows: [2, 3], stats: { rows_count: 1 } });
    expect((await patch(h, id, { skip_rows: [1] }).expect(200)).body.data).toMatchObject({ skip_rows: [1], stats: { rows_count: 2, invalid_rows_count: 1 } });
    const cleared = await patch(h, id, { skip_rows: [] }).expect(200);
    expect(cleared.body.data).toMatchObject({ skip_rows: [], stats: { rows_count: 3, invalid_rows_count: 1 } });
    expect((await rows(h, id)).map((r) => [r.row_number, r.valid])).toEqual([[1, true], [2, false], [3, true]]);
    // Every row skipped: nothing to publish.
    const none = await patch(h, id, { skip_rows: [1, 2, 3] }).expect(200);
    expect(none.body.data).toMatchObject({ stats: { rows_count: 0 }, status_detail: { configured: false, publishable: false } });
    expect((await publish(h, id).expect(422)).body.errors).toContain('The import has no rows');
  });

  it('refuses skip_rows that are not row numbers of the import with a 422 naming them, changing nothing', async () => {
    const h = await t.newHousehold();
    const id = await junkImport(h);
    await patch(h, id, { skip_rows: [2] }).expect(200);
    const before = { detail: await show(h, id), rows: await rows(h, id) };

    const refusals: Array<[unknown, string | RegExp]> = [
      [[4, 99, 1], 'skip_rows names rows this import does not have: 4, 99 (its rows are 1-3)'],
      [[0, -1, 1.5, '2'], 'skip_rows must hold row numbers (positive whole numbers, as row_number in GET /imports/{id}/rows); not: 0, -1, 1.5, "2"'],
      [[null, { row: 1 }], /^skip_rows must hold row numbers .*; not: null, \{"row":1\}$/],
      ['2', 'skip_rows must be an array of row numbers'],
      [null, 'skip_rows must be an array of row numbers'],
      [[1, 1, 1, 3], 'skip_rows lists 4 row numbers, more than the 3 rows of this import'],
    ];
    for (const [skip, message] of refusals) {
      // With another change in the same request: that one is not made either.
      const res = await patch(h, id, { skip_rows: skip, name_col_label: 'Payee' });
      expect({ skip, status: res.status, error: res.body.error }).toEqual({ skip, status: 422, error: 'validation_failed' });
      expect(res.body.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
    }
    const tooMany = await patch(h, id, { skip_rows: Array.from({ length: 100_001 }, (_, i) => i + 1) }).expect(422);
    expect(tooMany.body.message).toBe('skip_rows can hold at most 100000 row numbers');

    expect({ detail: await show(h, id), rows: await rows(h, id) }).toEqual(before);
    expect(before.detail).toMatchObject({ skip_rows: [2], configuration: { name_col_label: null } });
  });

  it("answers 404 for another family's import, as every PATCH does", async () => {
    const h = await t.newHousehold();
    const other = await t.newHousehold();
    const id = await junkImport(h);
    const res = await patch(other, id, { skip_rows: [2] }).expect(404);
    expect(res.body.error).toBe('record_not_found');
    expect((await show(h, id)).skip_rows).toEqual([]);
  });

  it('skips a QIF record whose amount cannot be read', async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    const qif = '!Type:Bank\nD01/02/2024\nT-1.00\nPShop\n^\nD01/03/2024\nTabc\nPSmudged\n^\nD01/04/2024\nT-2.50\nPCafe\n^\n';
    const created = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: qif, account_id: account }).expect(201);
    const id = created.body.data.id;
    expect(created.body.data.stats).toMatchObject({ rows_count: 3, invalid_rows_count: 1 });
    expect((await rows(h, id)).filter((r) => !r.valid).map((r) => r.row_number)).toEqual([2]);
    expect((await patch(h, id, { skip_rows: [2] }).expect(200)).body.data).toMatchObject({ stats: { rows_count: 2, invalid_rows_count: 0 } });
    await publish(h, id).expect(202);
    expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
    expect(await entries(id)).toEqual([{ name: 'Shop', amount: 100 }, { name: 'Cafe', amount: 250 }]);
  });

  it('refuses a QIF split with a part skipped on the rows left of it, and publishes once the whole split is skipped', async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    const qif = '!Type:Bank\nD01/02/2024\nT-100.00\nPCostco\nSFood\n$-60.00\nSHome\n$-40.00\n^\nD01/03/2024\nT-2.50\nPCafe\n^\n';
    const id = (await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: qif, account_id: account }).expect(201)).body.data.id;
    await patch(h, id, { skip_rows: [3] }).expect(200);
    const message = (n: number) => `Row ${n}: it is one of rows 1-3, which publish together (a split, or one record of several rows): skip them all, or include them again`;
    expect((await rows(h, id)).filter((r) => !r.valid).map((r) => [r.row_number, r.errors])).toEqual([[1, [message(1)]], [2, [message(2)]]]);
    await publish(h, id).expect(422);

    await patch(h, id, { skip_rows: [1, 2, 3] }).expect(200);
    await publish(h, id).expect(202);
    expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
    expect(await entries(id)).toEqual([{ name: 'Cafe', amount: 250 }]);
  });

  describe('Actual splits', () => {
    const CSV = [
      'Account,Date,Payee,Notes,Category,Amount,Split_Amount,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT INTO 2) weekly shop,,0,-100.00,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT 1 OF 2) food,Food,-70.00,0,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT 2 OF 2) soap,Home,-30.00,0,Cleared',
      'Checking,2024-03-06,Cafe,,Food,-4.50,0,Cleared',
      'Checking,2024-03-07,Shop,,Food,-2.00,0,Cleared',
    ].join('\n');

    it('refuses a split with a part skipped as a row error naming the skipped row, and publishes once the whole split is skipped', async () => {
      const h = await t.newHousehold();
      const id = (await createImport(t.server, h.apiKey, { type: 'ActualImport', raw_file_content: CSV }).expect(201)).body.data.id;
      const partSkipped = await patch(h, id, { skip_rows: [3] }).expect(200);
      expect(partSkipped.body.data).toMatchObject({ stats: { rows_count: 4, invalid_rows_count: 1 }, status_detail: { publishable: false } });
      const message = 'Row 1: a split into 2 must be followed by its 2 split rows; 1 follow it (row 3 is skipped: skip the whole split, or include it again)';
      expect((await rows(h, id)).filter((r) => !r.valid).map((r) => [r.row_number, r.errors])).toEqual([[1, [message]]]);
      const refused = await publish(h, id).expect(422);
      expect(refused.body).toMatchObject({ error: 'not_publishable', errors: ['1 rows are invalid', message] });

      await patch(h, id, { skip_rows: [1, 2, 3, 5] }).expect(200);
      await publish(h, id).expect(202);
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
      expect(await entries(id)).toEqual([{ name: 'Cafe', amount: 450 }]);
    });

    it('publishes the split whole when a row beside it is skipped', async () => {
      const h = await t.newHousehold();
      const id = (await createImport(t.server, h.apiKey, { type: 'ActualImport', raw_file_content: CSV }).expect(201)).body.data.id;
      await patch(h, id, { skip_rows: [4] }).expect(200);
      await publish(h, id).expect(202);
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
      expect(await entries(id)).toEqual([
        { name: 'Costco', amount: 3000 },
        { name: 'Costco', amount: 7000 },
        { name: 'Costco', amount: 10000 },
        { name: 'Shop', amount: 200 },
      ]);
    });
  });

  describe('ServiceImport', () => {
    const line = (type: string, data: Record<string, unknown>) => JSON.stringify({ type, data });
    // Rows are stored in publish order (the account first), then the lines with problems: row_number is not the
    // file's line, which each row's fields.line gives.
    const FILE = [
      line('Transaction', { id: 'txn-1', account_id: 'acc-1', date: '2025-01-05', amount: '12.00', name: 'Lunch' }),
      line('Transaction', { id: 'txn-2', account_id: 'acc-1', date: '05/01/2025', amount: '8.00', name: 'Bad date' }),
      '{"type": "Transaction", "data": ',
      line('Account', { id: 'acc-1', name: 'Wallet', balance: '100', currency: 'USD', accountable_type: 'Depository', skip_opening_balance_import: true }),
      line('Tag', { id: 'tag-1', name: 'Unused' }),
    ].join('\n');

    it('skips records by row number: preflight, expected counts and publishing leave them out, the other rows keep their numbers', async () => {
      const h = await t.newHousehold();
      const created = await createImport(t.server, h.apiKey, { type: 'ServiceImport', raw_file_content: FILE }).expect(201);
      const id = created.body.data.id;
      expect(created.body.data.verification.expected_record_counts).toMatchObject({ accounts: 1, transactions: 2, tags: 1 });
      const stored = await rows(h, id);
      expect(stored.map((r) => [r.row_number, r.fields.line, r.valid])).toEqual([[1, 4, true], [2, 5, true], [3, 1, true], [4, 2, true], [5, 3, false]]);

      const refused = await publish(h, id).expect(422);
      expect(refused.body.error).toBe('preflight_failed');
      expect(refused.body.errors).toEqual(expect.arrayContaining([expect.stringMatching(/^Line 2 .*date/), expect.stringMatching(/^Line 3 is not valid JSON/)]));
      expect((await show(h, id)).status).toBe('failed');

      const rowOf = (fileLine: number) => stored.find((r) => r.fields.line === fileLine)!.row_number;
      const skipped = await patch(h, id, { skip_rows: [rowOf(2), rowOf(3), rowOf(5)] }).expect(200);
      expect(skipped.body.data).toMatchObject({
        skip_rows: [2, 4, 5],
        stats: { rows_count: 2, invalid_rows_count: 0 },
        verification: { expected_record_counts: expect.objectContaining({ accounts: 1, transactions: 1, tags: 0 }) },
      });
      expect((await rows(h, id)).map((r) => [r.row_number, r.fields.line])).toEqual([[1, 4], [3, 1]]);

      await publish(h, id).expect(202);
      const done = await waitForImport(t.server, h.apiKey, id);
      expect(done).toMatchObject({ status: 'complete', verification: { readback: { status: 'matched' } } });
      expect(await entries(id)).toEqual([{ name: 'Lunch', amount: 1200 }]);
      expect(await t.dataSource.query(`SELECT name FROM tags WHERE family_id = $1`, [h.familyId])).toEqual([]);
    });

    it('refuses to skip the account a kept record needs at preflight, and row numbers past the stored rows', async () => {
      const h = await t.newHousehold();
      const id = (await createImport(t.server, h.apiKey, { type: 'ServiceImport', raw_file_content: FILE }).expect(201)).body.data.id;
      const past = await patch(h, id, { skip_rows: [6] }).expect(422);
      expect(past.body.message).toBe('skip_rows names rows this import does not have: 6 (its rows are 1-5)');
      await patch(h, id, { skip_rows: [1, 4, 5] }).expect(200);
      const refused = await publish(h, id).expect(422);
      expect(refused.body.errors).toEqual(['Sure import preflight failed:', 'Line 1 Transaction references missing account_id "acc-1".']);
    });
  });

  it('publishes with skip_rows sent in the same PATCH as the account the rows need', async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    const created = await createImport(t.server, h.apiKey, { raw_file_content: JUNK_DATE_CSV, date_format: '%Y-%m-%d' }).expect(201);
    const id = created.body.data.id;
    const res = await patch(h, id, { account_id: account, skip_rows: [2] }).expect(200);
    expect(res.body.data).toMatchObject({ account_id: account, skip_rows: [2], status_detail: { publishable: true } });
    await publish(h, id).expect(202);
    expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
    expect(await entries(id)).toEqual([{ name: 'Grocer', amount: 1000 }, { name: 'Cafe', amount: 700 }]);
  });
});
