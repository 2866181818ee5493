import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import request from 'supertest';
import { IMPORTS_QUEUE } from '../src/imports/imports.queue';
import { ImportsProcessor } from '../src/imports/imports.processor';
import { ImportPublisher } from '../src/imports/publishing/import-publisher';
import { createImport, newAccount, publishAndWait, revertAndWait, waitForImport } from './support/imports';
import { startPrivateRedis, PrivateRedis } from './support/private-redis';
import { statementPdf } from './support/statement-pdfs';
import { Household, startTestApp, TestApp } from './support/test-app';
import { until } from './support/until';

// Hostile input against POST /api/v1/imports and its follow-up routes (the hostile-input harness's groups C, E and J).
// Every case asserts the status, the error code and that the family's data is exactly what it was.

const MAX_ROWS = 50;
const TEN_MB = 10 * 1024 * 1024;

describe('imports: hostile input', () => {
  let t: TestApp;
  let h: Household;
  let accountId: string;

  beforeAll(async () => {
    t = await startTestApp({ IMPORT_MAX_ROWS: String(MAX_ROWS) });
    h = await t.newHousehold();
    accountId = await newAccount(t, h);
  });
  afterAll(() => t.close());

  const csvBody = (csv: string, extra: Record<string, unknown> = {}) => ({ raw_file_content: csv, account_id: accountId, ...extra });
  const post = (body: Record<string, unknown>) => createImport(t.server, h.apiKey, body);
  const upload = () => request(t.server).post('/api/v1/imports').set('X-Api-Key', h.apiKey);
  /** The entries a publish worker would have committed for rows 1..throughRow, before it died or failed. */
  const commitRowsAsAWorkerWould = (id: string, throughRow: number) =>
    t.dataSource.query(
      `INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency, import_id)
       SELECT $1, $2, 'Transaction', (r."values"->>'date')::date, r."values"->>'name', -100, 'USD', $3
         FROM import_rows r WHERE r.import_id = $3 AND r.source_row_number <= $4`,
      [h.familyId, accountId, id, throughRow],
    );

  /** Runs `act` and checks it changed nothing stored for the family. */
  async function refusedWithoutTrace(act: () => Promise<request.Response>, status: number, error: string) {
    const before = await familyState(t, h.familyId);
    const res = await act();
    expect({ status: res.status, error: res.body.error }).toEqual({ status, error });
    expect(typeof res.body.message).toBe('string');
    expect(res.body.message).not.toMatch(/stack|at \w+ \(|SELECT|INSERT|QueryFailed/);
    expect(await familyState(t, h.familyId)).toEqual(before);
    return res;
  }

  describe('CSV content (C)', () => {
    it('refuses an unclosed quote as invalid_csv naming the row (C22)', async () => {
      const res = await refusedWithoutTrace(() => post(csvBody('date,amount,name\n2024-01-01,1,"Coffee\n2024-01-02,2,Tea')), 422, 'invalid_csv');
      expect(res.body.message).toMatch(/unbalanced quotes near row \d/);
    });

    it('reads stray quotes inside a quoted field literally, but refuses one that runs over a line break (C22)', async () => {
      const res = await post(csvBody('date,amount,name\n2024-01-01,1,"Bob "Best" Diner"\n2024-01-02,2,Tea')).expect(201);
      const rows = await request(t.server).get(`/api/v1/imports/${res.body.data.id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
      expect(rows.body.data.map((r: { fields: { name: string } }) => r.fields.name)).toEqual(['Bob "Best" Diner', 'Tea']);
      const merged = await refusedWithoutTrace(() => post(csvBody('date,amount,name\n2024-01-01,1,"Bob "Best\n2024-01-02,2,"Tea"')), 422, 'invalid_csv');
      expect(merged.body.message).toBe('The CSV could not be parsed: unbalanced quotes near row 1');
    });

    it('reads a UTF-8 BOM, UTF-16 with BOM and Windows-1252 bytes (C23)', async () => {
      const files: Array<[string, Buffer]> = [
        ['bom.csv', Buffer.from('\uFEFFdate,amount,name\n2024-01-01,1,Café', 'utf8')],
        ['utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('date,amount,name\n2024-01-01,1,Café', 'utf16le')])],
        ['cp1252.csv', Buffer.from([...Buffer.from('date,amount,name\n2024-01-01,1,Caf'), 0xe9])],
      ];
      for (const [name, bytes] of files) {
        const res = await upload().field('account_id', accountId).attach('file', bytes, { filename: name, contentType: 'text/csv' }).expect(201);
        const rows = await request(t.server).get(`/api/v1/imports/${res.body.data.id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
        expect(rows.body.data.map((r: { fields: { name: string } }) => r.fields.name)).toEqual(['Café']);
      }
    });

    it('refuses a UTF-8 file with a Windows-1252 line, naming the line, instead of garbling its UTF-8 letters', async () => {
      const mixed = Buffer.from([...Buffer.from('date,amount,name\n2024-01-01,1,Café\n2024-01-02,2,Crème\n2024-01-03,3,Caf'), 0xe9]);
      const res = await refusedWithoutTrace(
        () => upload().field('account_id', accountId).attach('file', mixed, { filename: 'mixed.csv', contentType: 'text/csv' }),
        422,
        'invalid_encoding',
      );
      expect(res.body.message).toContain('UTF-8 except on line 4 (byte 0xE9)');
    });

    it('counts rows exactly across mixed line endings and quoted newlines (C24)', async () => {
      const csv = 'date,amount,name\r\n2024-01-01,1,a\n2024-01-02,2,"two\nlines"\r\n2024-01-03,3,c\n\n';
      const res = await post(csvBody(csv)).expect(201);
      expect(res.body.data.stats).toMatchObject({ rows_count: 3, valid_rows_count: 3 });
    });

    it('refuses a semicolon file read with commas, and an unknown separator (C25)', async () => {
      await refusedWithoutTrace(() => post(csvBody('date;amount;name\n2024-01-01;1;a')), 422, 'invalid_csv');
      await refusedWithoutTrace(() => post(csvBody('date|amount\n2024-01-01|1', { col_sep: '|' })), 422, 'validation_failed');
    });

    it('accepts exactly 10 MB and refuses one byte more, inline and as a file (C26)', async () => {
      const head = 'date,amount,name,notes\n2024-01-01,1,big,';
      const exact = head + 'x'.repeat(TEN_MB - head.length);
      const created = await post(csvBody(exact)).expect(201);
      expect(created.body.data.stats.rows_count).toBe(1);
      await refusedWithoutTrace(() => post(csvBody(exact + 'x')), 422, 'content_too_large');
      await refusedWithoutTrace(
        () => upload().field('account_id', accountId).attach('file', Buffer.from(exact + 'x'), { filename: 'big.csv', contentType: 'text/csv' }),
        422,
        'file_too_large',
      );
      await refusedWithoutTrace(
        () => upload().attach('file', Buffer.alloc(26 * 1024 * 1024, 0x61), { filename: 'huge.csv', contentType: 'text/csv' }),
        422,
        'file_too_large',
      );
    });

    it('refuses a million tiny rows before storing them, and stores but will not publish rows over the limit (C27)', async () => {
      const tiny = 'date,amount\n' + '2024-01-01,1\n'.repeat(800_000);
      const res = await refusedWithoutTrace(() => post(csvBody(tiny)), 422, 'too_many_rows');
      expect(res.body.message).toContain('800000 rows');

      const overLimit = 'date,amount\n' + '2024-01-01,1\n'.repeat(MAX_ROWS + 1);
      const stored = await post(csvBody(overLimit, { publish: 'true' })).expect(422);
      expect(stored.body).toMatchObject({ error: 'max_row_count_exceeded', import_id: expect.any(String) });
      const detail = await request(t.server).get(`/api/v1/imports/${stored.body.import_id}`).set('X-Api-Key', h.apiKey).expect(200);
      expect(detail.body.data).toMatchObject({ status: 'pending', stats: { rows_count: MAX_ROWS + 1 } });
    });

    it('stores formula-looking and Unicode text verbatim (C28, C31)', async () => {
      const names = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", '@SUM(1)', '-2+3', 'emoji 🏠 \u202Eevil', 'Cafe\u0301 vs Café', 'zwj 👩\u200D💻'];
      const csv = 'date,amount,name\n' + names.map((n, i) => `2024-01-0${i + 1},1,"${n.replace(/"/g, '""')}"`).join('\n');
      const res = await post(csvBody(csv, { publish: 'true' })).expect(201);
      expect((await waitForImport(t.server, h.apiKey, res.body.data.id)).status).toBe('complete');
      const stored = await t.dataSource.query(`SELECT name FROM entries WHERE import_id = $1 ORDER BY date`, [res.body.data.id]);
      expect(stored.map((e: { name: string }) => e.name)).toEqual(names);
    });

    it('lists bad dates and numbers as row errors, keeps the good rows, and refuses to publish (C29, C30)', async () => {
      const cells = [
        ['2024-02-30', '1'],
        ['13/01/2024', '1'],
        ['2024-01-01', '1e309'],
        ['2024-01-01', 'NaN'],
        ['2024-01-01', '0x10'],
        ['2024-01-01', '１２３'],
        ['2024-01-01', '99999999999999999999.99'],
        ['', '1'],
        ['2024-01-01', '(50.00)'],
        // 1.234 in a 1.234,56 file read as 1,234.56: finer than the dollar, so not rounded to 1.23.
        ['2024-01-01', '1.234'],
      ];
      const csv = 'date,amount\n' + cells.map((c) => c.join(',')).join('\n');
      const before = await familyState(t, h.familyId);
      const res = await post(csvBody(csv, { publish: 'true' })).expect(422);
      expect(res.body).toMatchObject({ error: 'not_publishable', import_id: expect.any(String) });
      expect(res.body.errors).toContain('9 rows are invalid');
      const rows = await request(t.server).get(`/api/v1/imports/${res.body.import_id}/rows?per_page=20`).set('X-Api-Key', h.apiKey).expect(200);
      expect(rows.body.data.map((r: { valid: boolean }) => r.valid)).toEqual([false, false, false, false, false, false, false, false, true, false]);
      expect(rows.body.data[0].errors).toEqual(["Row 1: date '2024-02-30' does not match the date format %Y-%m-%d"]);
      expect(rows.body.data[6].errors).toEqual(["Row 7: amount '99999999999999999999.99' is not a number in the format 1,234.56"]);
      expect(rows.body.data[8].fields.amount).toBe('50.00');
      expect(rows.body.data[9].errors).toEqual(["Row 10: amount '1.234' is finer than the USD minor unit: USD amounts have 2 decimals (check number_format and the currency)"]);
      const after = await familyState(t, h.familyId);
      expect(after.entries).toBe(before.entries);
    });

    it('lists account, category and tag names over 200 characters as row errors naming the row and column', async () => {
      const long = (c: string, n: number) => c.repeat(n);
      const csv = [
        'date,amount,Account,Category,Tags',
        '2024-01-01,1,Wallet,Food,ok',
        `2024-01-02,1,${long('a', 201)},Food,ok`,
        `2024-01-03,1,Wallet,${long('c', 600)},ok`,
        `2024-01-04,1,Wallet,Food: ${long('l', 201)},ok`,
        `2024-01-05,1,Wallet,Food,ok|${long('🏠', 201)}`,
      ].join('\n');
      const before = await familyState(t, h.familyId);
      const res = await post({ raw_file_content: csv, account_col_label: 'Account', category_col_label: 'Category', tags_col_label: 'Tags', publish: 'true' }).expect(422);
      expect(res.body).toMatchObject({ error: 'not_publishable', import_id: expect.any(String) });
      const rows = await request(t.server).get(`/api/v1/imports/${res.body.import_id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
      expect(rows.body.data.map((r: { errors: string[] }) => r.errors)).toEqual([
        [],
        [`Row 2: Account '${long('a', 40)}…' is too long: account names can have at most 200 characters`],
        [`Row 3: Category '${long('c', 40)}…' is too long: category names can have at most 200 characters`],
        [`Row 4: Category 'Food: ${long('l', 34)}…' is too long: category names can have at most 200 characters`],
        [`Row 5: Tags '${long('🏠', 40)}…' is too long: tag names can have at most 200 characters`],
      ]);
      expect(await familyState(t, h.familyId)).toEqual({ ...before, imports: before.imports + 1, rows: before.rows + 5 });

      // 200 characters (PostgreSQL counts characters, not UTF-16 units) fit, on each side of "Parent: Leaf" too.
      const fits = `date,amount,account,category,tags\n2024-01-01,1,${long('a', 200)},${long('p', 200)}: ${long('l', 200)},${long('🏠', 200)}`;
      const published = await post({ raw_file_content: fits, publish: 'true' }).expect(201);
      expect((await waitForImport(t.server, h.apiKey, published.body.data.id)).status).toBe('complete');

      // An account type is only a mapping key: up to 500 characters.
      const types = await post({ type: 'AccountImport', raw_file_content: `Account type,Name,Balance\n${long('k', 501)},Jar,5\n${long('k', 500)},Pot,5` }).expect(201);
      const typeRows = await request(t.server).get(`/api/v1/imports/${types.body.data.id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
      expect(typeRows.body.data.map((r: { errors: string[] }) => r.errors)).toEqual([
        [`Row 1: account type '${long('k', 40)}…' is too long: account types can have at most 500 characters`],
        [],
      ]);
    });

    it('refuses NUL characters and unpaired surrogates instead of failing in the database (C32)', async () => {
      await refusedWithoutTrace(() => post(csvBody('date,amount,name\n2024-01-01,1,a\u0000b')), 422, 'invalid_encoding');
      const lone = JSON.stringify(csvBody('date,amount,name\n2024-01-01,1,x')).replace('"x"', '"\\ud800"').replace(',x', ',\\ud800');
      await refusedWithoutTrace(
        () => upload().set('Content-Type', 'application/json').send(lone),
        422,
        'invalid_encoding',
      );
      await refusedWithoutTrace(() => post(csvBody('date,amount\n2024-01-01,1', { date_col_label: 'date\u0000' })), 422, 'invalid_encoding');
    });

    it('refuses headers that normalise to the same column (C33)', async () => {
      const res = await refusedWithoutTrace(() => post(csvBody('Date,amount,DATE*\n2024-01-01,1,2024-01-02')), 422, 'invalid_csv');
      expect(res.body.message).toMatch(/^The CSV has two columns named 'date' \(columns 1 and 3\), and the import reads that column: rename/);
    });

    it('treats __proto__ and constructor headers as plain columns (C34)', async () => {
      const res = await post(csvBody('date,amount,__proto__,constructor\n2024-01-01,1,{"polluted":1},x')).expect(201);
      expect(res.body.data.stats.valid_rows_count).toBe(1);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('takes rule condition and action types named like inherited object properties for plain values (C34)', async () => {
      const conditions = JSON.stringify([{ condition_type: 'constructor', operator: 'like', value: 'Food' }, { condition_type: 'toString', operator: 'like', value: 'x' }]);
      const actions = JSON.stringify([{ action_type: '__proto__', value: 'Food' }]);
      const quoted = (json: string) => `"${json.replace(/"/g, '""')}"`;
      const rules = `name,resource_type,active,effective_date,conditions,actions\nOdd,transaction,true,2024-01-01,${quoted(conditions)},${quoted(actions)}`;
      const id = (await post({ type: 'RuleImport', raw_file_content: rules, publish: 'true' }).expect(201)).body.data.id;
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
      const [rule] = await t.dataSource.query(`SELECT conditions, actions FROM rules WHERE import_id = $1`, [id]);
      // Stored as given: no category, merchant or tag was looked up or created for them.
      expect(rule).toEqual({ conditions: JSON.parse(conditions), actions: JSON.parse(actions) });
      const [{ named }] = await t.dataSource.query(`SELECT count(*)::int AS named FROM categories WHERE family_id = $1 AND name = 'Food'`, [h.familyId]);
      expect(named).toBe(0);
    });

    it('refuses empty content, a header without rows and 20,000 columns (C36)', async () => {
      await refusedWithoutTrace(() => post(csvBody('')), 422, 'missing_content');
      await refusedWithoutTrace(() => post(csvBody('date,amount\n')), 422, 'invalid_csv');
      const wide = Array.from({ length: 20_000 }, (_, i) => `c${i}`).join(',');
      await refusedWithoutTrace(() => post(csvBody(`${wide}\n${wide}`)), 422, 'invalid_csv');
    });

    it('refuses null where a field cannot be empty, naming the field, on create and PATCH', async () => {
      for (const [field, named] of [
        ['raw_file_content', 'raw_file_content must be a string'],
        ['type', 'type must be a string'],
        ['number_format', 'number_format must be one of'],
        ['signage_convention', 'signage_convention must be one of'],
        ['amount_type_strategy', 'amount_type_strategy must be one of'],
        ['col_sep', 'col_sep must be one of'],
        ['publish', 'publish must be'],
      ]) {
        const res = await refusedWithoutTrace(() => post(csvBody('date,amount\n2024-01-01,1', { [field]: null })), 422, 'validation_failed');
        expect(res.body.errors).toEqual(expect.arrayContaining([expect.stringContaining(named)]));
      }
      const id = (await post(csvBody('date,amount\n2024-01-01,1')).expect(201)).body.data.id;
      const patch = (body: Record<string, unknown>) => request(t.server).patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send(body);
      for (const [field, named] of [
        ['amount_type_strategy', 'amount_type_strategy must be one of'],
        ['mappings', 'mappings must be an array'],
      ]) {
        const res = await refusedWithoutTrace(() => patch({ [field]: null }), 422, 'validation_failed');
        expect(res.body.errors).toEqual(expect.arrayContaining([expect.stringContaining(named)]));
      }
      // A label may be cleared with null: the column is then found by its usual header names.
      await patch({ date_col_label: null }).expect(200);
    });

    it('refuses page numbers beyond a million with a message naming the range', async () => {
      const res = await request(t.server).get('/api/v1/imports?page=1000000000000000000').set('X-Api-Key', h.apiKey);
      expect({ status: res.status, error: res.body.error, errors: res.body.errors }).toEqual({
        status: 422,
        error: 'validation_failed',
        errors: ['page must be an integer from 1 to 1000000'],
      });
    });

    it('refuses unknown, path-like and oversized types; accepts publish as a JSON boolean (C37)', async () => {
      for (const type of ['Kernel', '../../x', 'T'.repeat(10_000), 'constructor', 'toString']) {
        const res = await refusedWithoutTrace(() => post(csvBody('date,amount\n2024-01-01,1', { type })), 422, 'invalid_import_type');
        expect(res.body.message.length).toBeLessThan(400);
        expect(res.body.message).toContain(`Unknown import type '${type.slice(0, 40)}`);
      }
      const res = await post(csvBody('date,amount\n2024-01-01,7.77', { publish: true })).expect(201);
      expect(res.body.data.status).toBe('importing');
      expect((await waitForImport(t.server, h.apiKey, res.body.data.id)).status).toBe('complete');
    });
  });

  describe('multipart and transport (E)', () => {
    it('answers a CSV or text posted as the body itself with 415 saying how to send it, storing nothing (E57)', async () => {
      const csv = 'date,amount\n2024-01-01,1';
      // curl --data-binary @file.csv sends the file as a form body.
      for (const [type, body] of [['text/csv', csv], ['application/x-www-form-urlencoded', csv], ['text/plain', JSON.stringify({ raw_file_content: csv })]]) {
        const res = await refusedWithoutTrace(() => upload().set('Content-Type', type).send(body), 415, 'unsupported_media_type');
        expect(res.body.message).toBe("Send JSON with the file's text in raw_file_content, or multipart/form-data with the file in the field 'file'.");
      }
      await refusedWithoutTrace(() => upload(), 422, 'missing_content');
    });

    it('refuses wrong MIME types and binary bytes sent as CSV (E50)', async () => {
      await refusedWithoutTrace(() => upload().attach('file', Buffer.from('%PDF-1.4'), { filename: 'x.pdf', contentType: 'application/pdf' }), 422, 'invalid_file_type');
      await refusedWithoutTrace(() => upload().attach('file', Buffer.from('abc'), { filename: 'x.png', contentType: 'image/png' }), 422, 'invalid_file_type');
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
      const res = await refusedWithoutTrace(() => upload().attach('file', png, { filename: 'x.csv', contentType: 'text/csv' }), 422, 'invalid_file_type');
      expect(res.body.message).toBe('"x.csv" is a PNG image, not a CSV file.');
    });

    it('refuses multipart without content, and extra or misnamed files (E51, E52)', async () => {
      await refusedWithoutTrace(() => upload().field('type', 'TransactionImport'), 422, 'missing_content');
      const csv = Buffer.from('date,amount\n2024-01-01,1');
      await refusedWithoutTrace(
        () => upload().attach('file', csv, { filename: 'a.csv', contentType: 'text/csv' }).attach('file', csv, { filename: 'b.csv', contentType: 'text/csv' }),
        422,
        'unexpected_file',
      );
      await refusedWithoutTrace(() => upload().attach('other', csv, { filename: 'a.csv', contentType: 'text/csv' }), 422, 'unexpected_file');
    });

    it('keeps only the base name of hostile file names (E53)', async () => {
      const csv = Buffer.from('date,amount\n2024-01-01,1');
      const res = await upload().field('account_id', accountId).attach('file', csv, { filename: '../../etc/passwd.csv', contentType: 'text/csv' }).expect(201);
      const [stored] = await t.dataSource.query(`SELECT file_name FROM imports WHERE id = $1`, [res.body.data.id]);
      expect(stored.file_name).toBe('passwd.csv');
    });

    it('answers a garbled multipart body with 400 and stores nothing (E54)', async () => {
      await refusedWithoutTrace(
        () => upload().set('Content-Type', 'multipart/form-data; boundary=xyz').send('--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\ntruncated'),
        400,
        'malformed_multipart',
      );
    });

    it('limits JSON bodies to 1 MB outside imports (E56)', async () => {
      const res = await request(t.server)
        .patch('/api/v1/family_settings')
        .set('X-Api-Key', h.apiKey)
        .send({ name: 'x'.repeat(2 * 1024 * 1024) });
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 413, error: 'payload_too_large' });
    });
  });

  describe('publishing races and family isolation (B, J)', () => {
    it('lets exactly one of 20 parallel publishes through and imports every row once (J114)', async () => {
      const csv = 'date,amount,name\n' + Array.from({ length: 30 }, (_, i) => `2024-02-${String((i % 28) + 1).padStart(2, '0')},${i + 1}.25,Race ${i}`).join('\n');
      const created = await post(csvBody(csv)).expect(201);
      const id = created.body.data.id;
      const responses = await Promise.all(Array.from({ length: 20 }, () => request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey)));
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 202)).toHaveLength(1);
      // The others are told the import is publishing (or, once it is done, published), not that it has a problem.
      const others = responses.filter((r) => r.status !== 202);
      expect(others.every((r) => r.status === 409 && ['import_publishing', 'import_published'].includes(r.body.error) && r.body.import_id === id)).toBe(true);
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
      const [{ count }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM entries WHERE import_id = $1`, [id]);
      expect(count).toBe(30);
    });

    it('publishes once when the same job is delivered twice (J113)', async () => {
      const csv = 'date,amount,name\n' + Array.from({ length: 12 }, (_, i) => `2024-03-${String(i + 1).padStart(2, '0')},${i + 1},Twice ${i}`).join('\n');
      const id = (await post(csvBody(csv)).expect(201)).body.data.id;
      await t.dataSource.query(`UPDATE imports SET status = 'importing' WHERE id = $1`, [id]);
      const queue = t.app.get<Queue>(getQueueToken(IMPORTS_QUEUE));
      await Promise.all([1, 2].map(() => queue.add('publish', { importId: id, familyId: h.familyId })));
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
      const [{ count }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM entries WHERE import_id = $1`, [id]);
      expect(count).toBe(12);
    });

    it('lets the reaper fail an import whose worker vanished, and publishing again resumes it without duplicates (J117)', async () => {
      const csv = 'date,amount,name\n' + Array.from({ length: 8 }, (_, i) => `2024-04-${String(i + 1).padStart(2, '0')},${i + 1},Lost ${i}`).join('\n');
      const id = (await post(csvBody(csv)).expect(201)).body.data.id;
      // A worker died after committing rows 1-3: the rows are in, the resume point says so, the job is gone.
      await commitRowsAsAWorkerWould(id, 3);
      await t.dataSource.query(`UPDATE imports SET status = 'importing', published_through_row = 3, updated_at = now() - interval '1 hour' WHERE id = $1`, [id]);
      await t.app.get(ImportsProcessor).reap();
      const failed = await request(t.server).get(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).expect(200);
      expect(failed.body.data).toMatchObject({ status: 'failed', error: expect.stringContaining('Publish again to resume') });
      await request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
      const names = await t.dataSource.query(`SELECT name FROM entries WHERE import_id = $1 ORDER BY date`, [id]);
      expect(names.map((n: { name: string }) => n.name)).toEqual(Array.from({ length: 8 }, (_, i) => `Lost ${i}`));
    });

    it('reverts a failed import that kept committed chunks, then publishes it again exactly (J116)', async () => {
      const csv = 'date,amount,name\n' + Array.from({ length: 6 }, (_, i) => `2024-05-${String(i + 1).padStart(2, '0')},${i + 1},Partial ${i}`).join('\n');
      const id = (await post(csvBody(csv)).expect(201)).body.data.id;
      // A publish failed after committing rows 1-2: they stay, and the import says so.
      await commitRowsAsAWorkerWould(id, 2);
      await t.dataSource.query(`UPDATE imports SET status = 'failed', error = 'stopped', published_through_row = 2 WHERE id = $1`, [id]);
      const failed = await request(t.server).get(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).expect(200);
      expect(failed.body.data.status_detail).toMatchObject({ revertable: true, publishable: true });
      await request(t.server).post(`/api/v1/imports/${id}/revert`).set('X-Api-Key', h.apiKey).expect(202);
      expect(await waitForImport(t.server, h.apiKey, id)).toMatchObject({ status: 'pending', error: null });
      const [{ count }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM entries WHERE import_id = $1`, [id]);
      expect(count).toBe(0);
      await request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
      const names = await t.dataSource.query(`SELECT name FROM entries WHERE import_id = $1 ORDER BY date`, [id]);
      expect(names.map((n: { name: string }) => n.name)).toEqual(Array.from({ length: 6 }, (_, i) => `Partial ${i}`));
    });

    it('refuses to change a failed import that kept committed rows until it is reverted (J116)', async () => {
      const csv = 'date,amount,name\n' + Array.from({ length: 4 }, (_, i) => `2024-05-0${i + 1},${i + 1},Kept ${i}`).join('\n');
      const id = (await post(csvBody(csv)).expect(201)).body.data.id;
      await commitRowsAsAWorkerWould(id, 2);
      await t.dataSource.query(`UPDATE imports SET status = 'failed', error = 'stopped', published_through_row = 2 WHERE id = $1`, [id]);
      const other = await newAccount(t, h);
      const patch = () => request(t.server).patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send({ account_id: other, signage_convention: 'inflows_negative' });
      const before = await importState(t, id);
      const res = await refusedWithoutTrace(patch, 409, 'import_not_editable');
      expect(res.body.message).toBe('Rows 1-2 of this import are published already; revert it first to change it');
      expect(await importState(t, id)).toEqual(before);

      await request(t.server).post(`/api/v1/imports/${id}/revert`).set('X-Api-Key', h.apiKey).expect(202);
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('pending');
      expect((await patch().expect(200)).body.data).toMatchObject({ account_id: other, configuration: { signage_convention: 'inflows_negative' } });
    });

    // A PATCH held in flight needs a second connection to hold it at a barrier: PostgreSQL only.
    (process.env.DATABASE_URL ? it : it.skip)('checks the rows a PATCH in flight writes before publishing, not the rows it replaces', async () => {
      const id = (await post(csvBody('date,amount,name\n2024-01-05,1,Coffee\n2024-01-06,2,Tea')).expect(201)).body.data.id;
      // The backend waiting for `blocker`'s locks (other suites share the database: only this chain counts).
      const waitingFor = async (blocker: number): Promise<number | undefined> =>
        (await t.dataSource.query(`SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [blocker]))[0]?.pid;
      // The barrier: a PATCH replaces the import's rows after locking the import; a lock on those rows holds it there.
      const barrier = await t.dataSource.createQueryRunner();
      await barrier.connect();
      await barrier.startTransaction();
      await barrier.query(`SELECT 1 FROM import_rows WHERE import_id = $1 FOR UPDATE`, [id]);
      const [{ pid: barrierPid }] = await barrier.query(`SELECT pg_backend_pid() AS pid`);
      let patched: Promise<request.Response> | undefined;
      let published: Promise<request.Response> | undefined;
      try {
        // Read with %d/%m/%Y, no row has a date.
        patched = request(t.server).patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send({ date_format: '%d/%m/%Y' }).then((r) => r);
        const patchPid = await until('the PATCH to wait at the barrier', () => waitingFor(barrierPid));
        published = request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).then((r) => r);
        await until('the publish to wait for the PATCH', () => waitingFor(patchPid));
      } finally {
        await barrier.rollbackTransaction();
        await barrier.release();
      }
      expect((await patched)?.status).toBe(200);
      const res = await published!;
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 422, error: 'not_publishable' });
      expect(res.body.errors).toContain('2 rows are invalid');
      const [state] = await t.dataSource.query(`SELECT status, (SELECT count(*)::int FROM entries WHERE import_id = $1) AS entries FROM imports WHERE id = $1`, [id]);
      expect(state).toEqual({ status: 'pending', entries: 0 });
    });

    it('refuses PATCH mappings for a type that maps no values (ServiceImport, PdfImport, CategoryImport), changing nothing', async () => {
      const ndjson = '{"type":"Account","data":{"id":"a1","name":"X","balance":"1","currency":"USD","accountable_type":"Depository"}}';
      const pdf = await statementPdf({ title: 'Acme Bank statement', headers: ['Date', 'Description', 'Debit', 'Credit', 'Balance'], columns: [40, 110, 330, 400, 480], rows: [['02/01/2024', 'Shop', '1.50', '', '98.50']] });
      const ids = {
        ServiceImport: (await post({ type: 'ServiceImport', raw_file_content: ndjson }).expect(201)).body.data.id,
        PdfImport: (await upload().field('type', 'PdfImport').attach('file', pdf, { filename: 's.pdf', contentType: 'application/pdf' }).expect(201)).body.data.id,
        CategoryImport: (await post({ type: 'CategoryImport', raw_file_content: 'name\nFood' }).expect(201)).body.data.id,
      };
      for (const [type, id] of Object.entries(ids)) {
        const before = await importState(t, id);
        const patch = () => request(t.server).patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send({ account_id: accountId, mappings: [{ type: 'category', key: 'Food' }] });
        const res = await refusedWithoutTrace(patch, 422, 'validation_failed');
        expect(res.body.errors).toEqual([`mappings do not apply to ${type}: its rows name no accounts, categories, tags or account types`]);
        expect(await importState(t, id)).toEqual(before);
      }
    });

    it('creates a missing account once when two publishers of one import run together (J115)', async () => {
      const csv = 'date,amount,name,account\n' + Array.from({ length: 5 }, (_, i) => `2024-06-0${i + 1},${i + 1},Pair ${i},Raced account`).join('\n');
      const id = (await post({ raw_file_content: csv }).expect(201)).body.data.id;
      await t.dataSource.query(`UPDATE imports SET status = 'importing' WHERE id = $1`, [id]);
      const publisher = t.app.get(ImportPublisher);
      await Promise.all([1, 2].map(() => publisher.publish({ importId: id, familyId: h.familyId })));
      const [{ accounts }] = await t.dataSource.query(`SELECT count(*)::int AS accounts FROM accounts WHERE family_id = $1 AND name = 'Raced account'`, [h.familyId]);
      const [{ entries, status }] = await t.dataSource.query(
        `SELECT (SELECT count(*)::int FROM entries WHERE import_id = $1) AS entries, (SELECT status FROM imports WHERE id = $1) AS status`,
        [id],
      );
      // The later publisher took over; it completed the import.
      expect({ accounts, entries, status }).toEqual({ accounts: 1, entries: 5, status: 'complete' });
    });

    it('refuses to revert an import that was never published (J116)', async () => {
      const created = await post(csvBody('date,amount\n2024-01-01,1')).expect(201);
      await refusedWithoutTrace(() => request(t.server).post(`/api/v1/imports/${created.body.data.id}/revert`).set('X-Api-Key', h.apiKey), 422, 'not_revertable');
    });

    it("answers 404 for another family's import on every route, and 422 for its account (B)", async () => {
      const other = await t.newHousehold();
      const created = await post(csvBody('date,amount\n2024-01-01,1')).expect(201);
      const id = created.body.data.id;
      const as = (method: 'get' | 'post' | 'patch', path: string) => request(t.server)[method](path).set('X-Api-Key', other.apiKey);
      for (const [method, path] of [
        ['get', `/api/v1/imports/${id}`],
        ['get', `/api/v1/imports/${id}/rows`],
        ['patch', `/api/v1/imports/${id}`],
        ['post', `/api/v1/imports/${id}/publish`],
        ['post', `/api/v1/imports/${id}/revert`],
        ['get', '/api/v1/imports/not-a-uuid'],
      ] as const) {
        await refusedWithoutTrace(() => as(method, path).send({}), 404, 'record_not_found');
      }
      const listed = await as('get', '/api/v1/imports').expect(200);
      expect(listed.body.data).toEqual([]);
      const before = await familyState(t, other.familyId);
      const res = await createImport(t.server, other.apiKey, { raw_file_content: 'date,amount\n2024-01-01,1', account_id: accountId });
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 422, error: 'validation_failed' });
      expect(await familyState(t, other.familyId)).toEqual(before);
      expect((await familyState(t, h.familyId)).imports).toBeGreaterThan(0);
    });

    it('needs a read_write key to create or publish (A)', async () => {
      const reader = await t.newHousehold({ scope: 'read' });
      const res = await createImport(t.server, reader.apiKey, { raw_file_content: 'date,amount\n2024-01-01,1' });
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 403, error: 'insufficient_scope' });
      expect((await familyState(t, reader.familyId)).imports).toBe(0);
    });
  });
});

describe('imports: the queue stops while publishing (J108)', () => {
  let redis: PrivateRedis;
  let t: TestApp;
  let h: Household;
  let accountId: string;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await startTestApp({ REDIS_URL: redis.url, IMPORT_STUCK_AFTER_SECONDS: '10' }); // the reaper runs every 5 s
    h = await t.newHousehold();
    accountId = await newAccount(t, h);
  });
  afterAll(async () => {
    // Right after a Redis restart the workers' connections are still reconnecting; the app must close all the same.
    await t.close();
    await redis.stop();
  });

  // A request that waited for Redis to come back would never answer: the test's own timeout fails it.
  it('answers 500 publish_failed with import_id without waiting for Redis, keeps the import, and publishes it once Redis is back', async () => {
    await redis.stop();
    const res = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name\n2024-01-01,12.34,Kept', account_id: accountId, publish: 'true' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'publish_failed', message: 'Import was uploaded but could not be queued for processing', import_id: expect.any(String) });
    const id = res.body.import_id;
    const detail = await request(t.server).get(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).expect(200);
    expect(detail.body.data).toMatchObject({ status: 'pending', stats: { rows_count: 1, valid_rows_count: 1 } });

    await redis.start();
    await request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
    expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
    const entries = await t.dataSource.query(`SELECT name, amount_minor::int AS amount FROM entries WHERE import_id = $1`, [id]);
    expect(entries).toEqual([{ name: 'Kept', amount: -1234 }]);
  });

  it('answers a revert with Redis down at once: 500 revert_failed with import_id, the import and its entries as they were', async () => {
    const id = (await publishAndWait(t, h, { raw_file_content: 'date,amount,name\n2024-01-02,5,Stays', account_id: accountId })).id;
    await redis.stop();
    try {
      const res = await request(t.server).post(`/api/v1/imports/${id}/revert`).set('X-Api-Key', h.apiKey);
      expect(res.body).toEqual({ error: 'revert_failed', message: 'The revert could not be queued; the import is as it was, try again', import_id: id });
      expect(res.status).toBe(500);
      const detail = await request(t.server).get(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).expect(200);
      expect(detail.body.data.status).toBe('complete');
      const entries = await t.dataSource.query(`SELECT name FROM entries WHERE import_id = $1`, [id]);
      expect(entries).toEqual([{ name: 'Stays' }]);
    } finally {
      await redis.start();
    }
    expect((await revertAndWait(t, h, id)).status).toBe('pending');
  });

  it('answers a family export with Redis down at once: 500 export_failed, the export recorded as failed', async () => {
    await redis.stop();
    try {
      const res = await request(t.server).post('/api/v1/family_exports').set('X-Api-Key', h.apiKey);
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 500, error: 'export_failed' });
      const [stored] = await t.dataSource.query(`SELECT status, error FROM family_exports WHERE id = $1`, [res.body.details.export_id]);
      expect(stored).toEqual({ status: 'failed', error: 'The export could not be queued.' });
    } finally {
      await redis.start();
    }
  });

  it('answers a large upload with publish and Redis down 500 publish_failed, keeping every stored row', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => `2024-02-${String((i % 28) + 1).padStart(2, '0')},-${(i % 400) + 1}.75,Payee ${i} reference ${i}`);
    await redis.stop();
    try {
      const res = await createImport(t.server, h.apiKey, { raw_file_content: ['date,amount,name', ...rows].join('\n'), account_id: accountId, publish: 'true' });
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 500, error: 'publish_failed' });
      const detail = await request(t.server).get(`/api/v1/imports/${res.body.import_id}`).set('X-Api-Key', h.apiKey).expect(200);
      expect(detail.body.data).toMatchObject({ status: 'pending', stats: { rows_count: 10_000, valid_rows_count: 10_000 } });
    } finally {
      await redis.start();
    }
  });

  it('keeps reaping lost imports after Redis restarts without persistence (J117)', async () => {
    const id = (await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name\n2024-01-01,1,Lost', account_id: accountId }).expect(201)).body.data.id;
    await t.dataSource.query(`UPDATE imports SET status = 'importing', updated_at = now() - interval '1 hour' WHERE id = $1`, [id]);
    await redis.stop(); // job schedulers kept in Redis are gone with it
    await redis.start();
    const reaped = await waitForImport(t.server, h.apiKey, id, 15_000);
    expect(reaped).toMatchObject({ status: 'failed', error: expect.stringContaining('Publish again to resume') });
  });
});


/** Row counts of everything an import request could write for the family. */
async function familyState(t: TestApp, familyId: string) {
  const [state] = await t.dataSource.query(
    `SELECT (SELECT count(*)::int FROM imports WHERE family_id = $1) AS imports,
            (SELECT count(*)::int FROM import_rows r JOIN imports i ON i.id = r.import_id WHERE i.family_id = $1) AS rows,
            (SELECT count(*)::int FROM entries WHERE family_id = $1) AS entries,
            (SELECT count(*)::int FROM accounts WHERE family_id = $1) AS accounts`,
    [familyId],
  );
  return state;
}

/** What a refused PATCH must leave as it was: the import itself, its rows and its mappings. */
async function importState(t: TestApp, id: string) {
  const [state] = await t.dataSource.query(
    `SELECT to_jsonb(i) AS import,
            (SELECT jsonb_agg(to_jsonb(r) ORDER BY r.source_row_number) FROM import_rows r WHERE r.import_id = i.id) AS rows,
            (SELECT jsonb_agg(to_jsonb(m) ORDER BY m.type, m.key) FROM import_mappings m WHERE m.import_id = i.id) AS mappings
       FROM imports i WHERE i.id = $1`,
    [id],
  );
  return state;
}

describe('imports: a configured size limit (IMPORT_MAX_BYTES)', () => {
  let t: TestApp;
  let h: Household;
  beforeAll(async () => {
    t = await startTestApp({ IMPORT_MAX_BYTES: '2048' });
    h = await t.newHousehold();
  });
  afterAll(() => t.close());

  it('applies to CSV and NDJSON, inline and as files', async () => {
    const csv = 'date,amount,notes\n2024-01-01,1,' + 'x'.repeat(2048);
    const inline = await createImport(t.server, h.apiKey, { raw_file_content: csv });
    expect({ status: inline.status, error: inline.body.error, message: inline.body.message }).toEqual({
      status: 422,
      error: 'content_too_large',
      message: 'Content is too large. Maximum size is 2KB.',
    });
    const file = await request(t.server).post('/api/v1/imports').set('X-Api-Key', h.apiKey).field('type', 'ServiceImport').attach('file', Buffer.from(`{"type":"Account","data":{"id":"a","name":"${'n'.repeat(2100)}"}}\n`), { filename: 'x.ndjson', contentType: 'application/x-ndjson' });
    expect({ status: file.status, error: file.body.error }).toEqual({ status: 422, error: 'file_too_large' });
    const small = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount\n2024-01-01,1' });
    expect(small.status).toBe(201);
  });
});
