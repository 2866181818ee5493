import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import request from 'supertest';
import { User } from '../src/users/user.entity';
import { startFreshTestApp } from './support/fresh-database';
import { createImport, newAccount } from './support/imports';
import { startTestApp, TestApp } from './support/test-app';

// A currency enters Hearth at setup, the CLI and household settings: each refuses a code that is not ISO 4217 (XYZ
// is well-formed, and Intl would format it). Data that holds one already answers 409 saying what to fix, and
// household settings repair it.

const XYZ_PROBLEM = 'currency must be an ISO 4217 currency code such as USD or EUR ("XYZ" is not one)';

describe('first-run setup', () => {
  it('refuses currency XYZ and currency null with 422 naming the field, creating nothing, then sets up with EUR', async () => {
    const t = await startFreshTestApp();
    try {
      const body = { email: 'first@example.com', password: 'a long passphrase', family_name: 'The Firsts' };
      const xyz = await request(t.server).post('/api/v1/auth/setup').send({ ...body, currency: 'XYZ' });
      expect({ status: xyz.status, body: xyz.body }).toEqual({ status: 422, body: { error: 'validation_failed', message: XYZ_PROBLEM, errors: [XYZ_PROBLEM] } });
      const none = await request(t.server).post('/api/v1/auth/setup').send({ ...body, currency: null });
      expect({ status: none.status, error: none.body.error, errors: none.body.errors }).toEqual({
        status: 422,
        error: 'validation_failed',
        errors: ['currency must be an ISO 4217 currency code such as USD or EUR'],
      });
      expect(await t.dataSource.getRepository(User).count()).toBe(0);
      expect((await request(t.server).get('/api/v1/auth/config').expect(200)).body.setup_required).toBe(true);

      const done = await request(t.server).post('/api/v1/auth/setup').send({ ...body, currency: 'EUR' }).expect(201);
      const [family] = await t.dataSource.query(`SELECT currency FROM families WHERE id = $1`, [done.body.user.family_id]);
      expect(family.currency).toBe('EUR');
    } finally {
      await t.close();
    }
  });
});

describe('household currency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const api = (key: string, method: 'get' | 'post' | 'patch', path: string) => request(t.server)[method](`/api/v1${path}`).set('X-Api-Key', key);

  it('PATCH family_settings refuses XYZ with 422 naming currency and stores nothing', async () => {
    const h = await t.newHousehold();
    const before = (await api(h.apiKey, 'get', '/family_settings').expect(200)).body;
    const res = await api(h.apiKey, 'patch', '/family_settings').send({ currency: 'XYZ', name: 'Renamed' });
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { error: 'validation_failed', message: XYZ_PROBLEM, errors: [XYZ_PROBLEM] } });
    expect((await api(h.apiKey, 'get', '/family_settings').expect(200)).body).toEqual(before);
  });

  it('answers 409 naming the fix, never 500, when the stored household currency is not ISO 4217; household settings repair it', async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    const january = (await api(h.apiKey, 'post', '/budgets').send({ start_date: '2025-01-01' }).expect(201)).body.id;
    // As setup and the CLI once stored it: the household, and rows created in its currency since.
    await t.dataSource.query(`UPDATE families SET currency = 'XYZ' WHERE id = $1`, [h.familyId]);
    await t.dataSource.query(`UPDATE budgets SET currency = 'XYZ' WHERE id = $1`, [january]);
    await t.dataSource.query(`UPDATE budget_categories SET currency = 'XYZ' WHERE budget_id = $1`, [january]);
    await t.dataSource.query(`UPDATE accounts SET currency = 'XYZ' WHERE id = $1`, [account]);
    const budgetsBefore = await t.dataSource.query(`SELECT id FROM budgets WHERE family_id = $1`, [h.familyId]);

    const csv = { raw_file_content: 'date,amount,name\n2025-01-02,12.00,Shop\n' };
    const answers = {
      createBudget: await api(h.apiKey, 'post', '/budgets').send({ start_date: '2025-03-01' }),
      createImport: await createImport(t.server, h.apiKey, csv),
      listBudgets: await api(h.apiKey, 'get', '/budgets'),
      showBudget: await api(h.apiKey, 'get', `/budgets/${january}`),
      listAccounts: await api(h.apiKey, 'get', '/accounts'),
    };
    const family = { status: 409, error: 'invalid_family_currency', message: expect.stringMatching(/^The household currency "XYZ" is not an ISO 4217 currency code\. .*household settings/) };
    const stored = { status: 409, error: 'invalid_stored_currency', message: expect.stringMatching(/"XYZ" is not a supported ISO 4217 currency code\. .*household settings/) };
    const seen = Object.fromEntries(Object.entries(answers).map(([name, res]) => [name, { status: res.status, error: res.body.error, message: res.body.message }]));
    expect(seen).toEqual({ createBudget: family, createImport: family, listBudgets: stored, showBudget: stored, listAccounts: stored });
    expect(await t.dataSource.query(`SELECT id FROM budgets WHERE family_id = $1`, [h.familyId])).toEqual(budgetsBefore);
    expect(await t.dataSource.query(`SELECT id FROM imports WHERE family_id = $1`, [h.familyId])).toEqual([]);

    const repaired = await api(h.apiKey, 'patch', '/family_settings').send({ currency: 'EUR' }).expect(200);
    expect(repaired.body.currency).toBe('EUR');
    expect((await api(h.apiKey, 'get', `/budgets/${january}`).expect(200)).body.currency).toBe('EUR');
    expect((await api(h.apiKey, 'get', '/accounts').expect(200)).body.accounts.map((a: { currency: string }) => a.currency)).toEqual(['EUR']);
    await api(h.apiKey, 'post', '/budgets').send({ start_date: '2025-03-01' }).expect(201);
    await createImport(t.server, h.apiKey, csv).expect(201);
  });

  it('takes a currency that is not ISO 4217 in an import row as an error of that row, naming it', async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    const csv = 'date,amount,name,currency\n2025-01-02,12.00,Shop,EUR\n2025-01-03,5.00,Cafe,XYZ\n';
    const created = await createImport(t.server, h.apiKey, { raw_file_content: csv, currency_col_label: 'currency', account_id: account }).expect(201);
    const rows = await api(h.apiKey, 'get', `/imports/${created.body.data.id}/rows?errors=only`).expect(200);
    expect(rows.body.data.map((r: { row_number: number; errors: string[] }) => [r.row_number, r.errors])).toEqual([[2, ["Row 2: currency 'XYZ' is not a valid currency code"]]]);
  });

  it('keeps the valid currencies of other rows when the household currency changes', async () => {
    const h = await t.newHousehold();
    await newAccount(t, h, 'Savings', 'GBP');
    const january = (await api(h.apiKey, 'post', '/budgets').send({ start_date: '2025-01-01' }).expect(201)).body.id;
    await api(h.apiKey, 'patch', '/family_settings').send({ currency: 'EUR' }).expect(200);
    expect((await api(h.apiKey, 'get', `/budgets/${january}`).expect(200)).body.currency).toBe('USD');
    expect((await api(h.apiKey, 'get', '/accounts').expect(200)).body.accounts.map((a: { currency: string }) => a.currency)).toEqual(['GBP']);
  });
});

describe('operator CLI users:create', () => {
  it('refuses --currency XYZ as a usage error (exit 2) and creates nothing', async () => {
    const dataDir = `${tmpdir()}/hearth-cli-currency-${process.pid}-${Date.now()}`;
    const t = await startTestApp({ DATA_DIR: dataDir });
    try {
      const email = `xyz-${Date.now()}@example.com`;
      const run = promisify(execFile)(process.execPath, ['tools/cli.mjs', 'users:create', '--email', email, '--password-stdin', '--family-name', `XYZ ${email}`, '--currency', 'XYZ'], {
        cwd: `${__dirname}/../../..`,
        env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      });
      run.child.stdin!.end('long enough pw\n');
      await expect(run).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining(XYZ_PROBLEM) });
      expect(await t.dataSource.getRepository(User).countBy({ email })).toBe(0);
      expect(await t.dataSource.query(`SELECT id FROM families WHERE name = $1`, [`XYZ ${email}`])).toEqual([]);
    } finally {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000); // the CLI builds the API first when it is stale
});
