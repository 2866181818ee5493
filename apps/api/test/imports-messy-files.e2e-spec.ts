import request from 'supertest';
import { newAccount, waitForImport } from './support/imports';
import { startTestApp, TestApp } from './support/test-app';

// Files as banks and apps really write them, uploaded through the HTTP API: what the rows, the published entries
// and the account's balance come to.

describe('imports: messy real-world files', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const entries = (accountId: string) =>
    t.dataSource.query(`SELECT e.date::text AS date, e.name, e.amount_minor::int AS amount FROM entries e WHERE e.account_id = $1 ORDER BY e.date`, [accountId]);

  it('publishes a European bank export whose data lines end with a separator its header line lacks (Windows-1252, CRLF)', async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h, 'Girokonto', 'EUR');
    const csv = 'Buchungstag;Betrag;Verwendungszweck\r\n05.01.2024;-1.234,56;Miete Müller;\r\n\r\n06.01.2024;+2.500,00;Gehalt;\r\n';
    const res = await request(t.server)
      .post('/api/v1/imports')
      .set('X-Api-Key', h.apiKey)
      .field('account_id', accountId)
      .field('col_sep', 'semicolon')
      .field('number_format', '1.234,56')
      .field('date_format', '%d.%m.%Y')
      .field('date_col_label', 'Buchungstag')
      .field('amount_col_label', 'Betrag')
      .field('name_col_label', 'Verwendungszweck')
      .field('publish', 'true')
      .attach('file', Buffer.from(csv, 'latin1'), { filename: 'umsaetze.csv', contentType: 'text/csv' })
      .expect(201);
    expect(res.body.data.stats).toMatchObject({ rows_count: 2, invalid_rows_count: 0 });
    expect(await waitForImport(t.server, h.apiKey, res.body.data.id)).toMatchObject({ status: 'complete', error: null });
    expect(await entries(accountId)).toEqual([
      { date: '2024-01-05', name: 'Miete Müller', amount: 123456 },
      { date: '2024-01-06', name: 'Gehalt', amount: -250000 },
    ]);
  });
});
