import request from 'supertest';
import { createImport, newAccount, waitForImport } from './support/imports';
import { OpenApiDocument, schemaErrors } from './support/openapi-schema';
import { Household, startTestApp, TestApp } from './support/test-app';

// The HTTP contract of the import API (docs/api/importing.md): fields, status codes, error bodies and what each
// request leaves stored.

describe('imports: HTTP contract', () => {
  let t: TestApp;
  let h: Household;
  let accountId: string;

  beforeAll(async () => {
    t = await startTestApp();
    h = await t.newHousehold();
    accountId = await newAccount(t, h);
  });
  afterAll(() => t.close());

  const api = () => request(t.server);
  const stored = async (id: string) => {
    const [imp] = await t.dataSource.query(`SELECT status, updated_at FROM imports WHERE id = $1`, [id]);
    const mappings = await t.dataSource.query(
      `SELECT type, key, mappable_id AS id, create_when_empty AS create FROM import_mappings WHERE import_id = $1 ORDER BY type, key`,
      [id],
    );
    return { ...imp, mappings };
  };

  describe('POST /api/v1/imports', () => {
    it('takes publish as the JSON boolean false like the string "false": stored, not queued', async () => {
      const res = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount\n2024-01-01,1', account_id: accountId, publish: false });
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 201, error: undefined });
      expect(res.body.data.status).toBe('pending');
      expect((await stored(res.body.data.id)).status).toBe('pending');
    });

    it('refuses an empty date_format like any other unusable one, on create and PATCH, instead of failing every row', async () => {
      const [{ count: before }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM imports WHERE family_id = $1`, [h.familyId]);
      const res = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount\n2024-01-01,1', account_id: accountId, date_format: '' });
      expect({ status: res.status, error: res.body.error, message: res.body.message }).toEqual({
        status: 422,
        error: 'validation_failed',
        message: expect.stringContaining("date_format ''"),
      });
      const [{ count: after }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM imports WHERE family_id = $1`, [h.familyId]);
      expect(after).toBe(before);

      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount\n2024-01-01,1', account_id: accountId }).expect(201);
      const id = created.body.data.id;
      const patched = await api().patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send({ date_format: '' });
      expect({ status: patched.status, error: patched.body.error }).toEqual({ status: 422, error: 'validation_failed' });
      // The refused PATCH keeps the format create told from the file's dates.
      const shown = await api().get(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).expect(200);
      expect({ date_format: shown.body.data.configuration.date_format, cleaned: shown.body.data.status_detail.cleaned }).toEqual({ date_format: '%Y-%m-%d', cleaned: true });
    });
  });

  describe('PATCH /api/v1/imports/{id}', () => {
    it('refuses to change the type or the file, naming the field, instead of answering 200 with nothing changed', async () => {
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount\n2024-01-01,1', account_id: accountId }).expect(201);
      const id = created.body.data.id;
      const before = await stored(id);
      const res = await api().patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send({ type: 'MintImport', raw_file_content: 'date,amount\n2024-01-02,2' });
      expect({ status: res.status, error: res.body.error, errors: res.body.errors }).toEqual({
        status: 422,
        error: 'validation_failed',
        errors: ['type cannot be changed: upload the file again as a new import of that type', 'raw_file_content cannot be changed: upload the new file as a new import'],
      });
      expect(await stored(id)).toEqual(before);
    });

    it('answers a body that is not JSON with 415 instead of 200 with nothing or a form changed', async () => {
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,category\n2024-01-01,1,Food', account_id: accountId }).expect(201);
      const id = created.body.data.id;
      const before = await stored(id);
      for (const [type, body] of [
        ['text/plain', '{"number_format":"1.234,56"}'],
        ['application/x-www-form-urlencoded', 'number_format=1.234%2C56'],
      ]) {
        const res = await api().patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).set('Content-Type', type).send(body);
        expect({ type, status: res.status, error: res.body.error }).toEqual({ type, status: 415, error: 'unsupported_media_type' });
        expect(await stored(id)).toEqual(before);
      }
      const shown = await api().get(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).expect(200);
      expect(shown.body.data.configuration.number_format).toBe('1,234.56');
      await api().patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).set('Content-Type', 'application/json; charset=utf-8').send('{"number_format":"1.234,56"}').expect(200);
    });

    it("reports the ten configuration fields every CSV client knows in their order, then every other setting create accepted, to be read back", async () => {
      const csv = 'Day;Symbol;Shares;Cost;Venue;Cur\n2024-05-01;SAP;2;150;XETR;EUR';
      const body = {
        type: 'TradeImport', raw_file_content: csv, account_id: accountId, col_sep: 'semicolon', date_col_label: 'Day', ticker_col_label: 'Symbol',
        qty_col_label: 'Shares', price_col_label: 'Cost', exchange_operating_mic_col_label: 'Venue', currency_col_label: 'Cur',
      };
      const created = await createImport(t.server, h.apiKey, body).expect(201);
      expect(created.body.data.stats).toMatchObject({ valid_rows_count: 1 });
      const { configuration } = created.body.data;
      expect(Object.keys(configuration).slice(0, 10)).toEqual([
        'date_col_label', 'amount_col_label', 'name_col_label', 'category_col_label', 'tags_col_label',
        'notes_col_label', 'account_col_label', 'date_format', 'number_format', 'signage_convention',
      ]);
      expect(configuration).toMatchObject({
        date_col_label: 'Day', ticker_col_label: 'Symbol', qty_col_label: 'Shares', price_col_label: 'Cost',
        exchange_operating_mic_col_label: 'Venue', currency_col_label: 'Cur', col_sep: 'semicolon', amount_type_strategy: 'signed_amount',
      });
    });

    it('reads back header_row (null: detected) and has_header (default true), and refuses values they cannot take', async () => {
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount\n2024-01-01,1', account_id: accountId }).expect(201);
      expect(created.body.data.configuration).toMatchObject({ header_row: null, has_header: true });
      const id = created.body.data.id;
      const patched = await api().patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send({ header_row: 1 }).expect(200);
      expect(patched.body.data.configuration).toMatchObject({ header_row: 1, has_header: true });
      for (const [body, message] of [
        [{ header_row: 0 }, 'header_row must be a line number (a whole number from 1)'],
        [{ header_row: 1.5 }, 'header_row must be a line number (a whole number from 1)'],
        [{ has_header: 'maybe' }, 'has_header must be true or false'],
        [{ has_header: false }, 'header_row cannot be given when has_header is false (the file has no header line)'],
      ] as const) {
        const res = await api().patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send(body);
        expect({ status: res.status, error: res.body.error, message: res.body.message }).toEqual({ status: 422, error: 'validation_failed', message: expect.stringContaining(message) });
      }
      const headerless = await api().patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send({ header_row: null, has_header: false, date_col_label: '1', amount_col_label: '2' }).expect(200);
      expect(headerless.body.data.configuration).toMatchObject({ header_row: null, has_header: false });
      // The header line is now a row: its 'date' is no date.
      expect(headerless.body.data.stats).toMatchObject({ rows_count: 2, valid_rows_count: 1 });
    });

    it('moves updated_at when it changes only the mappings', async () => {
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,category\n2024-01-01,1,Food', account_id: accountId }).expect(201);
      const id = created.body.data.id;
      await new Promise((resolve) => setTimeout(resolve, 20));
      const res = await api()
        .patch(`/api/v1/imports/${id}`)
        .set('X-Api-Key', h.apiKey)
        .send({ mappings: [{ type: 'category', key: 'Food', create_when_empty: false }] })
        .expect(200);
      const after = await stored(id);
      expect(after.mappings).toEqual([{ type: 'category', key: 'Food', id: null, create: false }]);
      expect(Date.parse(res.body.data.updated_at)).toBeGreaterThan(Date.parse(created.body.data.updated_at));
      expect(res.body.data.updated_at).toBe(after.updated_at.toISOString());
    });

    it('refuses a mapping value that is not an id as validation_failed naming the mapping, changing nothing', async () => {
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,category\n2024-01-01,1,Food', account_id: accountId }).expect(201);
      const id = created.body.data.id;
      const before = await stored(id);
      for (const value of ['0123456789abcdef0123456789abcdef0123', '------------------------------------', 'not-an-id']) {
        const res = await api()
          .patch(`/api/v1/imports/${id}`)
          .set('X-Api-Key', h.apiKey)
          .send({ mappings: [{ type: 'category', key: 'Food', value }] });
        expect({ status: res.status, error: res.body.error, message: res.body.message }).toEqual({
          status: 422,
          error: 'validation_failed',
          message: "mapping category value must be the id of one of your family's categories",
        });
        expect(await stored(id)).toEqual(before);
      }
    });

    it('refuses a mapping given twice, even with the same choice, as validation_failed, changing nothing', async () => {
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,category\n2024-01-01,1,Food', account_id: accountId }).expect(201);
      const id = created.body.data.id;
      const before = await stored(id);
      for (const second of [{ create_when_empty: true }, { create_when_empty: false }]) {
        const res = await api()
          .patch(`/api/v1/imports/${id}`)
          .set('X-Api-Key', h.apiKey)
          .send({ mappings: [{ type: 'category', key: 'Food', create_when_empty: false }, { type: 'category', key: 'Food', ...second }] });
        expect({ status: res.status, error: res.body.error, message: res.body.message }).toEqual({
          status: 422,
          error: 'validation_failed',
          message: "the category mapping with the key 'Food' is given more than once",
        });
        expect(await stored(id)).toEqual(before);
      }
    });

    it('names the mapping a validation message is about by its place in the list, changing nothing', async () => {
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,category\n2024-01-01,1,Food\n2024-01-02,1,Fun', account_id: accountId }).expect(201);
      const id = created.body.data.id;
      const before = await stored(id);
      const res = await api()
        .patch(`/api/v1/imports/${id}`)
        .set('X-Api-Key', h.apiKey)
        .send({ mappings: [{ type: 'category', key: 'Food' }, { type: 'category', key: 'Fun', value: 5 }, { type: 'shop', key: 'x' }] });
      expect({ status: res.status, error: res.body.error, errors: res.body.errors }).toEqual({
        status: 422,
        error: 'validation_failed',
        errors: [
          'mappings[1].value must be shorter than or equal to 500 characters',
          'mappings[1].value must be a string',
          'mappings[2].type must be one of the following values: account, category, tag, account_type',
        ],
      });
      expect(await stored(id)).toEqual(before);
    });
  });

  describe('import ids in the path', () => {
    it('takes an id in upper case as the same import on every route, never a 500', async () => {
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount\n2024-01-01,1', account_id: accountId }).expect(201);
      const id: string = created.body.data.id;
      const upper = `/api/v1/imports/${id.toUpperCase()}`;
      expect((await api().get(upper).set('X-Api-Key', h.apiKey)).body.data?.id).toBe(id);
      expect((await api().patch(upper).set('X-Api-Key', h.apiKey).send({})).body.data?.id).toBe(id);
      const published = await api().post(`${upper}/publish`).set('X-Api-Key', h.apiKey);
      expect({ status: published.status, id: published.body.data?.id, importStatus: published.body.data?.status }).toEqual({ status: 202, id, importStatus: 'importing' });
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
      const reverted = await api().post(`${upper}/revert`).set('X-Api-Key', h.apiKey);
      expect({ status: reverted.status, id: reverted.body.data?.id }).toEqual({ status: 202, id });
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('pending');
    });
  });

  describe('GET /api/v1/imports', () => {
    it('filters by the type alias SureImport as ServiceImport, the type it creates', async () => {
      const other = await t.newHousehold();
      const ndjson = '{"type":"Account","data":{"id":"a1","name":"X","balance":"1","currency":"USD","accountable_type":"Depository"}}';
      const svc = await createImport(t.server, other.apiKey, { type: 'SureImport', raw_file_content: ndjson }).expect(201);
      expect(svc.body.data.type).toBe('ServiceImport');
      await createImport(t.server, other.apiKey, { raw_file_content: 'date,amount\n2024-01-01,1' }).expect(201);
      for (const type of ['SureImport', 'ServiceImport']) {
        const res = await api().get(`/api/v1/imports?type=${type}`).set('X-Api-Key', other.apiKey);
        expect({ status: res.status, ids: res.body.data?.map((i: { id: string }) => i.id), total: res.body.meta?.total_count }).toEqual({
          status: 200,
          ids: [svc.body.data.id],
          total: 1,
        });
      }
    });

    it('takes an empty status or type filter (a form left on "any") as no filter', async () => {
      const other = await t.newHousehold();
      const created = await createImport(t.server, other.apiKey, { raw_file_content: 'date,amount\n2024-01-01,1' }).expect(201);
      const res = await api().get('/api/v1/imports?status=&type=').set('X-Api-Key', other.apiKey);
      expect({ status: res.status, ids: res.body.data?.map((i: { id: string }) => i.id) }).toEqual({ status: 200, ids: [created.body.data.id] });
      const bad = await api().get('/api/v1/imports?status=%20').set('X-Api-Key', other.apiKey);
      expect({ status: bad.status, error: bad.body.error }).toEqual({ status: 422, error: 'validation_failed' });
    });
  });


  describe('pagination', () => {
    it('points prev_page of a page past the end at the last page, on the list and on the rows', async () => {
      const other = await t.newHousehold();
      const created = await createImport(t.server, other.apiKey, { raw_file_content: 'date,amount\n2024-01-01,1\n2024-01-02,2\n2024-01-03,3' }).expect(201);
      const list = await api().get('/api/v1/imports?page=5').set('X-Api-Key', other.apiKey).expect(200);
      expect(list.body).toEqual({ data: [], meta: { current_page: 5, next_page: null, prev_page: 1, total_pages: 1, total_count: 1, per_page: 25 } });
      const rows = await api().get(`/api/v1/imports/${created.body.data.id}/rows?per_page=2&page=9`).set('X-Api-Key', other.apiKey).expect(200);
      expect(rows.body).toEqual({ data: [], meta: { current_page: 9, next_page: null, prev_page: 2, total_pages: 2, total_count: 3, per_page: 2 } });
      const last = await api().get(`/api/v1/imports/${created.body.data.id}/rows?per_page=2&page=2`).set('X-Api-Key', other.apiKey).expect(200);
      expect({ rows: last.body.data.map((r: { row_number: number }) => r.row_number), meta: last.body.meta }).toEqual({
        rows: [3],
        meta: { current_page: 2, next_page: null, prev_page: 1, total_pages: 2, total_count: 3, per_page: 2 },
      });
    });

    it('takes page and per_page only as decimal digits, refusing hex, exponents and spaces with one message', async () => {
      for (const [query, message] of [
        ['page=0x2', 'page must be an integer from 1 to 1000000'],
        ['page=1e1', 'page must be an integer from 1 to 1000000'],
        ['page=%202', 'page must be an integer from 1 to 1000000'],
        ['per_page=0x10', 'per_page must be an integer from 1 to 100'],
        ['per_page=true', 'per_page must be an integer from 1 to 100'],
      ]) {
        const res = await api().get(`/api/v1/imports?${query}`).set('X-Api-Key', h.apiKey);
        expect({ query, status: res.status, error: res.body.error, errors: res.body.errors }).toEqual({ query, status: 422, error: 'validation_failed', errors: [message] });
      }
      await api().get('/api/v1/imports?page=01&per_page=100').set('X-Api-Key', h.apiKey).expect(200);
    });
  });

  describe('the OpenAPI document (npm run openapi)', () => {
    it('documents every status the import routes answer, each with the body the server really sends', async () => {
      const doc: OpenApiDocument = (await api().get('/api/v1/openapi.json').expect(200)).body;
      const reader = await t.newHousehold({ scope: 'read' });
      const seen: string[] = [];
      /** The answer's status must be documented for the route, and its body must match the documented schema. */
      const answers = async (route: string, req: request.Test) => {
        const method = req.method.toLowerCase();
        const res = await req;
        const documented = doc.paths[route]?.[method]?.responses[String(res.status)];
        seen.push(`${method} ${route} ${res.status}`);
        expect({ answer: `${method} ${route} ${res.status}`, documented: Boolean(documented) }).toEqual({ answer: `${method} ${route} ${res.status}`, documented: true });
        expect({ answer: `${method} ${route} ${res.status}`, errors: schemaErrors(doc, documented!.content?.['application/json']?.schema, res.body) }).toEqual({
          answer: `${method} ${route} ${res.status}`,
          errors: [],
        });
        return res;
      };
      const key = (r: request.Test, apiKey = h.apiKey) => r.set('X-Api-Key', apiKey);
      const csv = 'date,amount,name\n2024-01-01,-1.50,Shop';

      const list = '/api/v1/imports';
      const created = await answers(list, key(api().post(list)).send({ raw_file_content: csv, account_id: accountId }));
      const id = created.body.data.id;
      await answers(list, key(api().post(list)).field('account_id', accountId).attach('file', Buffer.from(csv), { filename: 'a.csv', contentType: 'text/csv' }));
      const ndjson = '{"type":"Account","data":{"id":"a1","name":"X","balance":"1","currency":"USD","accountable_type":"Depository"}}';
      const service = await answers(list, key(api().post(list)).send({ type: 'ServiceImport', raw_file_content: ndjson }));
      await answers(list, key(api().post(list)).send({ raw_file_content: csv, account_id: 'nope' }));
      await answers(list, key(api().post(list)).send({ raw_file_content: csv, publish: 'true' })); // no account: 422 with import_id
      await answers(list, key(api().post(list)).set('Content-Type', 'application/json').send('{"raw_file_content":'));
      await answers(list, api().post(list).send({ raw_file_content: csv }));
      await answers(list, key(api().post(list), reader.apiKey).send({ raw_file_content: csv }));
      await answers(list, key(api().get(list)));
      await answers(list, key(api().get(`${list}?per_page=0`)));

      const one = '/api/v1/imports/{id}';
      const missing = '00000000-0000-4000-8000-000000000000';
      await answers(one, key(api().get(`${list}/${id}`)));
      await answers(one, key(api().get(`${list}/${service.body.data.id}`)));
      await answers(one, key(api().get(`${list}/${missing}`)));
      await answers(one, key(api().patch(`${list}/${id}`)).send({ name_col_label: 'name' }));
      await answers(one, key(api().patch(`${list}/${id}`)).send({ number_format: 'nope' }));
      await answers(one, key(api().patch(`${list}/${id}`)).set('Content-Type', 'application/json').send('{'));
      await answers(one, key(api().patch(`${list}/${id}`)).set('Content-Type', 'text/plain').send('{}'));
      await answers(one, key(api().patch(`${list}/${missing}`)).send({}));

      const rows = '/api/v1/imports/{id}/rows';
      await answers(rows, key(api().get(`${list}/${id}/rows`)));
      await answers(rows, key(api().get(`${list}/${id}/rows?page=0`)));
      await answers(rows, key(api().get(`${list}/${missing}/rows`)));

      const publish = '/api/v1/imports/{id}/publish';
      const revert = '/api/v1/imports/{id}/revert';
      await answers(revert, key(api().post(`${list}/${id}/revert`)));
      await answers(publish, key(api().post(`${list}/${missing}/publish`)));
      await answers(publish, key(api().post(`${list}/${id}/publish`)));
      await answers(publish, key(api().post(`${list}/${id}/publish`)));
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
      await answers(one, key(api().patch(`${list}/${id}`)).send({}));
      await answers(revert, key(api().post(`${list}/${missing}/revert`)));
      await answers(revert, key(api().post(`${list}/${id}/revert`)));
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('pending');

      expect(seen.map((s) => s.split(' ')[2]).sort()).toEqual(expect.arrayContaining(['200', '201', '202', '400', '401', '403', '404', '409', '422']));
      // Counts are integers, and so are the page numbers beside them.
      for (const name of ['StatsDto', 'PaginationMetaDto']) {
        const types = Object.values(doc.components.schemas[name].properties!).map((p) => p.type);
        expect({ name, types: [...new Set(types)] }).toEqual({ name, types: ['integer'] });
      }
    });
  });
});
