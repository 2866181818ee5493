import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { AccountLocksRepository } from '../src/ledger/account-locks.repository';
import { BudgetFixtures } from './support/budgets';
import { addOpeningBalance } from './support/imports';
import { OpenApiDocument, schemaErrors } from './support/openapi-schema';
import { as, signIn } from './support/sessions';
import { Household, startTestApp, TestApp } from './support/test-app';

type Method = 'get' | 'post' | 'patch' | 'delete';

interface Txn {
  id: string;
  name: string;
  amount: string;
  amount_cents: number;
  parent_id: string | null;
  category: { id: string; name: string } | null;
  tags: Array<{ id: string; name: string }>;
  transfer: { id: string; other_account: { id: string } } | null;
  [field: string]: unknown;
}

/** Dates of this month, before today, so that balances (as of today) and the month's budget both count them. */
const DAY = (n: number) => `2026-11-${String(n).padStart(2, '0')}`;

describe('Transactions written by hand: create, change, split, transfer, bulk, delete', () => {
  let t: TestApp;
  let home: Household;
  let other: Household;
  let readKey: string;
  let fixtures: BudgetFixtures;
  const ids = {} as Record<'checking' | 'visa' | 'euros' | 'groceries' | 'dining' | 'merchant' | 'budget' | 'otherAccount' | 'otherCategory', string>;

  const api = (method: Method, path: string, key = home.apiKey) => request(t.server)[method](`/api/v1${path}`).set('X-Api-Key', key);
  const balance = async (account: string): Promise<number> => (await api('get', `/accounts/${account}`).expect(200)).body.balance_cents;
  const spent = async (): Promise<number> => (await api('get', `/budgets/${ids.budget}`).expect(200)).body.actual_spending_cents;
  const entryCount = async (familyId = home.familyId): Promise<number> =>
    (await t.dataSource.query(`SELECT count(*)::int AS n FROM entries WHERE family_id = $1`, [familyId]))[0].n;
  const create = async (fields: Record<string, unknown>, key = home.apiKey): Promise<Txn> =>
    (await api('post', '/transactions', key).send({ transaction: { account_id: ids.checking, date: DAY(5), name: 'Shop', ...fields } }).expect(201)).body;

  beforeAll(async () => {
    t = await startTestApp();
    fixtures = new BudgetFixtures(t);
    home = await t.newHousehold();
    other = await t.newHousehold();
    readKey = (await t.app.get(ApiKeysService).create({ userId: home.userId, name: 'read only', scope: 'read' })).key;
    ids.checking = await fixtures.account(home.familyId, { name: 'Checking', currency: 'USD' });
    ids.visa = await fixtures.account(home.familyId, { name: 'Visa', type: 'CreditCard', currency: 'USD' });
    ids.euros = await fixtures.account(home.familyId, { name: 'Euro savings', currency: 'EUR' });
    await addOpeningBalance(t, home, ids.checking, '2026-10-01', 100_000);
    ids.groceries = await fixtures.category(home.familyId, 'Groceries');
    ids.dining = await fixtures.category(home.familyId, 'Dining');
    [{ id: ids.merchant }] = await t.dataSource.query(
      `INSERT INTO merchants (family_id, type, name, color) VALUES ($1, 'FamilyMerchant', 'Corner Shop', '#e99537') RETURNING id`,
      [home.familyId],
    );
    ids.budget = (await api('post', '/budgets').send({ start_date: DAY(1) }).expect(201)).body.id;
    ids.otherAccount = await fixtures.account(other.familyId, { name: 'Theirs', currency: 'USD' });
    ids.otherCategory = await fixtures.category(other.familyId, 'Their groceries');
  }, 60_000);
  afterAll(() => t?.close());

  it('keeps the balance and the budget in step with every create, change, split, unsplit and delete', async () => {
    expect([await balance(ids.checking), await spent()]).toEqual([100_000, 0]);

    const made = await create({ amount: '42.50', category_id: ids.groceries, merchant_id: ids.merchant, tag_names: ['Weekly'], notes: 'milk' });
    expect(made).toMatchObject({
      date: DAY(5), amount: '$42.50', amount_cents: 4250, signed_amount_cents: -4250, currency: 'USD', name: 'Shop', notes: 'milk', classification: 'expense',
      parent_id: null, account: { id: ids.checking, name: 'Checking', account_type: 'depository' }, category: { id: ids.groceries, name: 'Groceries' },
      merchant: { id: ids.merchant, name: 'Corner Shop' }, tags: [expect.objectContaining({ name: 'Weekly' })], transfer: null,
    });
    expect((await api('get', `/transactions/${made.id}`).expect(200)).body).toEqual(made);
    expect([await balance(ids.checking), await spent()]).toEqual([95_750, 4250]);

    const changed = (await api('patch', `/transactions/${made.id}`).send({ transaction: { amount: 50, name: 'Market' } }).expect(200)).body;
    expect(changed).toMatchObject({ amount: '$50.00', name: 'Market', notes: 'milk', category: { id: ids.groceries }, tags: [expect.objectContaining({ name: 'Weekly' })] });
    expect([await balance(ids.checking), await spent()]).toEqual([95_000, 5000]);

    // A refund part in another category: budgets net refunds per category and floor each at 0, so the month now
    // counts the groceries part whole.
    const split = (await api('post', `/transactions/${made.id}/split`).send({
      parts: [{ amount: '70.00', name: 'Food', category_id: ids.groceries }, { amount: '-20', name: 'Returned bottles', category_id: ids.dining }],
    }).expect(200)).body;
    expect(split.transaction).toMatchObject({ id: made.id, amount: '$50.00', parent_id: null });
    expect(split.parts).toEqual([
      expect.objectContaining({ name: 'Food', amount: '$70.00', parent_id: made.id, date: DAY(5), category: expect.objectContaining({ id: ids.groceries }), merchant: { id: ids.merchant, name: 'Corner Shop' }, tags: [expect.objectContaining({ name: 'Weekly' })] }),
      expect.objectContaining({ name: 'Returned bottles', amount: '-$20.00', parent_id: made.id, category: expect.objectContaining({ id: ids.dining }) }),
    ]);
    expect([await balance(ids.checking), await spent()]).toEqual([95_000, 7000]);

    // Split again: the parts are replaced, not added to.
    await api('post', `/transactions/${made.id}/split`).send({ parts: [{ amount: '45', name: 'Food' }, { amount: '5', name: 'Bag', category_id: ids.dining }] }).expect(200);
    const listed: Txn[] = (await api('get', '/transactions?per_page=100').expect(200)).body.transactions;
    expect(listed.filter((x) => x.parent_id === made.id).map((x) => [x.name, x.amount_cents]).sort()).toEqual([['Bag', 500], ['Food', 4500]]);
    expect([await balance(ids.checking), await spent()]).toEqual([95_000, 5000]);

    await api('post', `/transactions/${made.id}/split`).send({ parts: [{ amount: '60', name: 'Food', category_id: ids.groceries }, { amount: '-10', name: 'Refund', category_id: ids.dining }] }).expect(200);
    expect(await spent()).toBe(6000);
    const whole = (await api('delete', `/transactions/${made.id}/split`).expect(200)).body;
    expect(whole).toMatchObject({ id: made.id, amount: '$50.00' });
    expect((await api('get', `/transactions?per_page=100`).expect(200)).body.transactions.filter((x: Txn) => x.parent_id === made.id)).toEqual([]);
    expect([await balance(ids.checking), await spent()]).toEqual([95_000, 5000]);

    const income = await create({ amount: '1500', nature: 'income', name: 'Salary', date: DAY(2) });
    expect(income).toMatchObject({ amount: '-$1,500.00', classification: 'income', signed_amount_cents: 150_000 });
    expect([await balance(ids.checking), await spent()]).toEqual([245_000, 5000]);

    await api('patch', `/transactions/${made.id}`).send({ transaction: { excluded: true } }).expect(200);
    expect(await spent()).toBe(0);
    await api('patch', `/transactions/${made.id}`).send({ transaction: { excluded: false, date: DAY(6), category_id: null, tag_ids: [] } }).expect(200);
    expect((await api('get', `/transactions/${made.id}`).expect(200)).body).toMatchObject({ date: DAY(6), category: null, tags: [] });

    await api('delete', `/transactions/${made.id}`).expect(204);
    await api('delete', `/transactions/${income.id}`).expect(204);
    await api('get', `/transactions/${made.id}`).expect(404);
    expect([await balance(ids.checking), await spent()]).toEqual([100_000, 0]);
  });

  it('waits for a publish holding the account, then writes', async () => {
    const made = await create({ amount: '1' });
    const release = await t.app.get(AccountLocksRepository).hold([ids.checking]);
    let answered = false;
    const patched = api('patch', `/transactions/${made.id}`).send({ transaction: { name: 'After the publish' } }).then((res) => {
      answered = true;
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered).toBe(false);
    expect((await t.dataSource.query(`SELECT name FROM entries WHERE id = $1`, [made.id]))[0].name).toBe('Shop');
    await release();
    expect((await patched).body.name).toBe('After the publish');
    await api('delete', `/transactions/${made.id}`).expect(204);
  });

  it('moves money between two accounts as one transfer, which budgets leave out, and undoes it with either side', async () => {
    const [checking, visa] = [await balance(ids.checking), await balance(ids.visa)];
    const res = await api('post', '/transfers').send({ from_account_id: ids.checking, to_account_id: ids.visa, amount: '200.00', date: DAY(7) }).expect(201);
    const { id, outflow, inflow } = res.body;
    expect(outflow).toMatchObject({ amount: '$200.00', name: 'Transfer to Visa', account: { id: ids.checking }, transfer: { id, amount: '$200.00', other_account: { id: ids.visa } } });
    expect(inflow).toMatchObject({ amount: '-$200.00', name: 'Transfer from Checking', account: { id: ids.visa }, transfer: { id, other_account: { id: ids.checking } } });
    const kinds = await t.dataSource.query(`SELECT entry_id AS id, kind FROM transactions WHERE entry_id = ANY($1::uuid[]) ORDER BY kind`, [[outflow.id, inflow.id]]);
    expect(kinds).toEqual([{ id: outflow.id, kind: 'cc_payment' }, { id: inflow.id, kind: 'funds_movement' }]);
    expect(await balance(ids.checking)).toBe(checking - 20_000);
    expect(Math.abs((await balance(ids.visa)) - visa)).toBe(20_000);
    expect(await spent()).toBe(0);

    // A side's amount would unbalance the transfer; its notes can change.
    const refused = await api('patch', `/transactions/${outflow.id}`).send({ transaction: { amount: '250' } }).expect(422);
    expect(refused.body.message).toMatch(/^transaction\.amount cannot change on a side of a transfer/);
    await api('patch', `/transactions/${outflow.id}`).send({ transaction: { notes: 'card bill' } }).expect(200);

    await api('delete', `/transactions/${inflow.id}`).expect(204);
    expect((await api('get', `/transactions/${outflow.id}`).expect(200)).body.transfer).toBeNull();
    expect((await t.dataSource.query(`SELECT kind FROM transactions WHERE entry_id = $1`, [outflow.id]))[0].kind).toBe('standard');
    expect(await spent()).toBe(20_000);
    await api('delete', `/transactions/${outflow.id}`).expect(204);
    expect([await balance(ids.checking), await balance(ids.visa), await spent()]).toEqual([checking, visa, 0]);
  });

  it('moves money across currencies with the amount that arrives', async () => {
    const missing = await api('post', '/transfers').send({ from_account_id: ids.checking, to_account_id: ids.euros, amount: '100', date: DAY(8) }).expect(422);
    expect(missing.body.message).toBe('to_amount is required: the money leaves in USD and arrives in EUR');
    const made = await api('post', '/transfers').send({ from_account_id: ids.checking, to_account_id: ids.euros, amount: '100', to_amount: '92.10', date: DAY(8) }).expect(201);
    expect(made.body.inflow).toMatchObject({ amount: '-€92.10', currency: 'EUR' });
    await api('delete', `/transactions/${made.body.outflow.id}`).expect(204);
    await api('delete', `/transactions/${made.body.inflow.id}`).expect(204);
  });

  it('changes the category, tags and exclusion of a selection at once, all or none', async () => {
    const picked = [await create({ amount: '10' }), await create({ amount: '20' }), await create({ amount: '30' })];
    const untouched = await create({ amount: '5', category_id: ids.groceries });
    expect(await spent()).toBe(6500);
    const selection = picked.map((x) => x.id);
    const res = await api('patch', '/transactions/bulk').send({ ids: selection, category_id: ids.dining, tag_names: ['Trip'] }).expect(200);
    expect(res.body).toEqual({ updated: 3 });
    for (const id of selection) expect((await api('get', `/transactions/${id}`).expect(200)).body).toMatchObject({ category: { id: ids.dining }, tags: [expect.objectContaining({ name: 'Trip' })] });
    expect((await api('get', `/transactions/${untouched.id}`).expect(200)).body).toMatchObject({ category: { id: ids.groceries }, tags: [] });

    await api('patch', '/transactions/bulk').send({ ids: selection, excluded: true }).expect(200);
    expect(await spent()).toBe(500);

    // One id that is not the household's: nothing changes.
    const theirs = await create({ account_id: ids.otherAccount, amount: '1' }, other.apiKey);
    const refused = await api('patch', '/transactions/bulk').send({ ids: [...selection, theirs.id], excluded: false }).expect(422);
    expect(refused.body.message).toBe(`ids: ${theirs.id} are not transactions of this household`);
    expect(await spent()).toBe(500);
    const tooMany = await api('patch', '/transactions/bulk').send({ ids: Array.from({ length: 1001 }, () => randomUUID()), excluded: true }).expect(422);
    expect(tooMany.body.message).toBe('ids must name at most 1000 transactions');
    expect((await api('patch', '/transactions/bulk').send({ ids: selection }).expect(422)).body.message).toMatch(/^Give at least one of category_id/);

    for (const x of [...picked, untouched]) await api('delete', `/transactions/${x.id}`).expect(204);
    expect(await spent()).toBe(0);
  });

  describe('bad input: a 422 naming the field, and nothing stored', () => {
    const valid = () => ({ account_id: ids.checking, date: DAY(9), amount: '12.00', name: 'Valid' });
    it.each([
      ['an amount that is no decimal', { amount: 'twelve' }, /^transaction\.amount must be a decimal amount/],
      ['an amount with an exponent', { amount: '1e3' }, /^transaction\.amount must be a decimal amount/],
      ['an amount finer than the currency', { amount: '12.345' }, /^transaction\.amount has more decimals than USD stores/],
      ['a date that is no date', { date: '2026-02-30' }, /^transaction\.date must be a date in the form YYYY-MM-DD/],
      ['a date in another form', { date: '11/05/2026' }, /^transaction\.date must be a date/],
      ['a field it does not take', { colour: 'red' }, /^transaction\.colour is not a field this operation takes/],
      ['a missing account', { account_id: undefined }, /^transaction\.account_id /],
      ['an unknown account', { account_id: randomUUID() }, /^transaction\.account_id is not an account of this household/],
      ['a name of nothing', { name: '' }, /^transaction\.name must be 1 to 500 characters/],
      ['a currency that is not ISO 4217', { currency: 'XYZ' }, /^transaction\.currency must be an ISO 4217 currency code/],
      ['a nature it does not know', { nature: 'gift' }, /^transaction\.nature must be income, inflow, expense or outflow/],
      ['tag ids that are no UUIDs', { tag_ids: ['x'] }, /^transaction\.tag_ids must be UUIDs/],
    ])('refuses %s', async (_, change, message) => {
      const before = await entryCount();
      const res = await api('post', '/transactions').send({ transaction: { ...valid(), ...change } }).expect(422);
      expect(res.body).toMatchObject({ error: 'validation_failed', message: expect.stringMatching(message) });
      expect(await entryCount()).toBe(before);
    });

    it('answers null in any field of the transaction with a 422 naming it, or takes it as none; never a 500', async () => {
      const made = await create({ amount: '2.00' });
      const fields = ['account_id', 'date', 'amount', 'nature', 'name', 'currency', 'category_id', 'merchant_id', 'tag_ids', 'tag_names', 'notes', 'excluded'];
      const answers: string[] = [];
      for (const field of fields) {
        for (const [method, path] of [['post', '/transactions'], ['patch', `/transactions/${made.id}`]] as const) {
          const res = await api(method, path).send({ transaction: { ...(method === 'post' ? valid() : {}), [field]: null } });
          const named = res.status < 300 || (res.status === 422 && res.body.errors.some((e: string) => e.startsWith(`transaction.${field} `)));
          if (!named) answers.push(`${method} ${field}: ${res.status} ${JSON.stringify(res.body)}`);
          if (method === 'post' && res.status === 201) await api('delete', `/transactions/${res.body.id}`).expect(204);
        }
      }
      expect(answers).toEqual([]);
      await api('delete', `/transactions/${made.id}`).expect(204);
    });

    it('refuses a body without the transaction object, or with fields beside it', async () => {
      expect((await api('post', '/transactions').send({ account_id: ids.checking }).expect(422)).body.errors).toEqual(
        expect.arrayContaining(['account_id is not a field this operation takes', 'transaction should not be null or undefined']),
      );
      expect((await api('post', '/transactions').send({ transaction: valid(), extra: 1 }).expect(422)).body.message).toBe('extra is not a field this operation takes');
    });

    it('refuses a split whose parts do not add up, of a part, of one part, or naming what is not the household\'s', async () => {
      const parent = await create({ amount: '30.00' });
      const before = await entryCount();
      const split = (id: string, parts: unknown) => api('post', `/transactions/${id}/split`).send({ parts });
      expect((await split(parent.id, [{ amount: '10', name: 'a' }, { amount: '10', name: 'b' }]).expect(422)).body.message).toBe(
        "parts must add up to the transaction's amount, 30.00 USD (they add up to 20.00)",
      );
      expect((await split(parent.id, [{ amount: '30', name: 'a' }]).expect(422)).body.message).toBe('parts must have at least 2 parts');
      expect((await split(parent.id, [{ amount: '10', name: 'a' }, { amount: '20', name: 'b', category_id: ids.otherCategory }]).expect(422)).body.message).toBe(
        'parts[1].category_id is not a category of this household',
      );
      expect((await split(parent.id, [{ amount: '10.001', name: 'a' }, { amount: '20', name: 'b' }]).expect(422)).body.message).toMatch(/^parts\[0\]\.amount has more decimals/);
      expect((await split(parent.id, [{ amount: '10', name: 'a', share: 1 }, { amount: '20', name: 'b' }]).expect(422)).body.message).toBe('parts[0].share is not a field this operation takes');
      expect(await entryCount()).toBe(before);

      const { parts } = (await split(parent.id, [{ amount: '10', name: 'a' }, { amount: '20', name: 'b' }]).expect(200)).body;
      expect((await split(parts[0].id, [{ amount: '5', name: 'c' }, { amount: '5', name: 'd' }]).expect(422)).body.message).toMatch(/^parts cannot split a split part/);
      expect((await api('patch', `/transactions/${parts[0].id}`).send({ transaction: { amount: '15' } }).expect(422)).body.message).toMatch(/^transaction\.amount cannot change on a split part/);
      expect((await api('patch', `/transactions/${parent.id}`).send({ transaction: { date: DAY(1) } }).expect(422)).body.message).toMatch(/^transaction\.date cannot change while the transaction is split/);
      expect((await api('patch', `/transactions/${parent.id}`).send({ transaction: { excluded: false } }).expect(422)).body.message).toMatch(/^transaction\.excluded cannot change while/);
      expect((await api('delete', `/transactions/${parts[0].id}`).expect(422)).body.message).toMatch(/^A split part cannot be deleted on its own/);
      // A part's category is its own to change.
      expect((await api('patch', `/transactions/${parts[0].id}`).send({ transaction: { category_id: ids.dining } }).expect(200)).body.category.id).toBe(ids.dining);
      expect((await api('delete', `/transactions/${parts[0].id}/split`).expect(422)).body.message).toBe('The transaction is not split');
      await api('delete', `/transactions/${parent.id}`).expect(204);
      expect(await t.dataSource.query(`SELECT id FROM entries WHERE parent_entry_id = $1`, [parent.id])).toEqual([]);
    });

    it('refuses a change of an amount to one finer than the currency, or of a currency the amount does not fit', async () => {
      const made = await create({ amount: '12.50' });
      expect((await api('patch', `/transactions/${made.id}`).send({ transaction: { amount: '1.005' } }).expect(422)).body.message).toMatch(/^transaction\.amount has more decimals/);
      expect((await api('patch', `/transactions/${made.id}`).send({ transaction: { currency: 'JPY' } }).expect(422)).body.message).toMatch(/^transaction\.currency has more decimals than JPY stores/);
      expect((await api('patch', `/transactions/${made.id}`).send({ transaction: { name: null } }).expect(422)).body.message).toMatch(/^transaction\.name /);
      expect((await api('get', `/transactions/${made.id}`).expect(200)).body).toMatchObject({ amount: '$12.50', name: 'Shop', currency: 'USD' });
      await api('delete', `/transactions/${made.id}`).expect(204);
    });
  });

  it('refuses every write to a read-scope key, changing nothing', async () => {
    const made = await create({ amount: '3' });
    const before = await entryCount();
    const writes: Array<[Method, string, object]> = [
      ['post', '/transactions', { transaction: { account_id: ids.checking, date: DAY(3), amount: '1', name: 'x' } }],
      ['patch', `/transactions/${made.id}`, { transaction: { name: 'y' } }],
      ['delete', `/transactions/${made.id}`, {}],
      ['post', `/transactions/${made.id}/split`, { parts: [{ amount: '1', name: 'a' }, { amount: '2', name: 'b' }] }],
      ['delete', `/transactions/${made.id}/split`, {}],
      ['patch', '/transactions/bulk', { ids: [made.id], excluded: true }],
      ['post', '/transfers', { from_account_id: ids.checking, to_account_id: ids.visa, amount: '1', date: DAY(3) }],
    ];
    for (const [method, path, body] of writes) {
      const res = await api(method, path, readKey).send(body);
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 403, error: 'insufficient_scope' });
    }
    expect(await entryCount()).toBe(before);
    expect((await api('get', `/transactions/${made.id}`, readKey).expect(200)).body).toMatchObject({ name: 'Shop', amount: '$3.00' });
    await api('delete', `/transactions/${made.id}`).expect(204);
  });

  it("keeps families apart: another family's transaction is 404, its account or category in a body a 422", async () => {
    const mine = await create({ amount: '8', category_id: ids.groceries });
    const seen = (await api('get', `/transactions/${mine.id}`).expect(200)).body;
    const theirs = (path: string, method: Method = 'get') => api(method, path, other.apiKey);
    await theirs(`/transactions/${mine.id}`).expect(404);
    await theirs(`/transactions/${mine.id}`, 'patch').send({ transaction: { name: 'stolen' } }).expect(404);
    await theirs(`/transactions/${mine.id}`, 'delete').expect(404);
    await theirs(`/transactions/${mine.id}/split`, 'post').send({ parts: [{ amount: '4', name: 'a' }, { amount: '4', name: 'b' }] }).expect(404);
    await theirs(`/transactions/${mine.id}/split`, 'delete').expect(404);

    const intoMine = await theirs('/transactions', 'post').send({ transaction: { account_id: ids.checking, date: DAY(4), amount: '1', name: 'x' } }).expect(422);
    expect(intoMine.body.message).toBe('transaction.account_id is not an account of this household');
    const withMyCategory = await theirs('/transactions', 'post').send({ transaction: { account_id: ids.otherAccount, date: DAY(4), amount: '1', name: 'x', category_id: ids.groceries } }).expect(422);
    expect(withMyCategory.body.message).toBe('transaction.category_id is not a category of this household');
    const withMyMerchant = await theirs('/transactions', 'post').send({ transaction: { account_id: ids.otherAccount, date: DAY(4), amount: '1', name: 'x', merchant_id: ids.merchant } }).expect(422);
    expect(withMyMerchant.body.message).toBe('transaction.merchant_id is not a merchant of this household');
    const myTag = (await t.dataSource.query(`INSERT INTO tags (family_id, name) VALUES ($1, 'Mine') RETURNING id`, [home.familyId]))[0].id;
    const withMyTag = await theirs('/transactions', 'post').send({ transaction: { account_id: ids.otherAccount, date: DAY(4), amount: '1', name: 'x', tag_ids: [myTag] } }).expect(422);
    expect(withMyTag.body.message).toBe("transaction.tag_ids names a tag that is not this household's");
    const fromMine = await theirs('/transfers', 'post').send({ from_account_id: ids.checking, to_account_id: ids.otherAccount, amount: '1', date: DAY(4) }).expect(422);
    expect(fromMine.body.message).toBe('from_account_id is not an account of this household');
    const theirOwn = await create({ account_id: ids.otherAccount, amount: '2' }, other.apiKey);
    const movedToMine = await theirs(`/transactions/${theirOwn.id}`, 'patch').send({ transaction: { account_id: ids.checking } }).expect(422);
    expect(movedToMine.body.message).toBe('transaction.account_id is not an account of this household');
    await theirs('/transactions/bulk', 'patch').send({ ids: [mine.id], category_id: null }).expect(422);

    expect((await api('get', `/transactions/${mine.id}`).expect(200)).body).toEqual(seen);
    const theirList = (await theirs('/transactions?per_page=100').expect(200)).body.transactions.map((x: Txn) => x.id);
    expect(theirList).toContain(theirOwn.id);
    expect(theirList).not.toContain(mine.id);
    await api('delete', `/transactions/${mine.id}`).expect(204);
  });

  it('takes the admin app session, with its CSRF token', async () => {
    const browser = await signIn(t.server, home.email);
    const res = await as(t.server, browser, 'post', '/api/v1/transactions').send({ transaction: { account_id: ids.checking, date: DAY(3), amount: '-4.25', name: 'Found' } }).expect(201);
    expect(res.body).toMatchObject({ amount: '-$4.25', classification: 'income' });
    await as(t.server, browser, 'delete', `/api/v1/transactions/${res.body.id}`).expect(204);
  });

  it('answers as the OpenAPI document describes', async () => {
    const doc: OpenApiDocument = (await request(t.server).get('/api/v1/openapi.json').expect(200)).body;
    const schema = (path: string, method: string, status: string) => doc.paths[path][method].responses[status].content?.['application/json']?.schema;
    const made = await create({ amount: '9.99', tag_names: ['Docs'] });
    expect(schemaErrors(doc, schema('/api/v1/transactions', 'post', '201'), made)).toEqual([]);
    const split = (await api('post', `/transactions/${made.id}/split`).send({ parts: [{ amount: '4.99', name: 'a' }, { amount: '5', name: 'b' }] }).expect(200)).body;
    expect(schemaErrors(doc, schema('/api/v1/transactions/{id}/split', 'post', '200'), split)).toEqual([]);
    const transfer = (await api('post', '/transfers').send({ from_account_id: ids.checking, to_account_id: ids.visa, amount: '1', date: DAY(3) }).expect(201)).body;
    expect(schemaErrors(doc, schema('/api/v1/transfers', 'post', '201'), transfer)).toEqual([]);
    const byCursor = (await api('get', `/transactions?per_page=1`).expect(200)).body;
    expect(schemaErrors(doc, schema('/api/v1/transactions', 'get', '200'), byCursor)).toEqual([]);
    const next = (await api('get', `/transactions?per_page=1&cursor=${byCursor.next_cursor}`).expect(200)).body;
    expect(next.pagination).toBeNull();
    expect(schemaErrors(doc, schema('/api/v1/transactions', 'get', '200'), next)).toEqual([]);
    for (const id of [made.id, transfer.outflow.id, transfer.inflow.id]) await api('delete', `/transactions/${id}`).expect(204);
  });

  describe('keyset paging', () => {
    let walker: Household;
    let account: string;
    let originals: string[];
    const list = (query: string) => api('get', `/transactions?${query}`, walker.apiKey).expect(200);

    beforeAll(async () => {
      walker = await t.newHousehold();
      account = await fixtures.account(walker.familyId, { name: 'Main', currency: 'USD' });
      // 250 transactions over 20 days, in two statements: many share a date, and each statement's share one
      // created_at, so the order falls to the id as often as it can.
      for (const half of [0, 1]) {
        await t.dataSource.query(
          `WITH e AS (
             INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency)
             SELECT $1, $2, 'Transaction', DATE '2026-10-01' + (n % 20), 'Row ' || n, n, 'USD' FROM generate_series($3::int, $4::int) AS n
             RETURNING id)
           INSERT INTO transactions (entry_id) SELECT id FROM e`,
          [walker.familyId, account, half * 125, half * 125 + 124],
        );
      }
      originals = (await t.dataSource.query(`SELECT id FROM entries WHERE family_id = $1`, [walker.familyId])).map((r: { id: string }) => r.id);
      expect(originals).toHaveLength(250);
    });

    it('gives the pages that numbered pages give, in the same order', async () => {
      const byNumber: string[] = [];
      for (let page = 1; page <= 3; page++) byNumber.push(...(await list(`per_page=100&page=${page}`)).body.transactions.map((x: Txn) => x.id));
      const byCursor: string[] = [];
      let body = (await list('per_page=30')).body;
      expect(body.pagination).toEqual({ page: 1, per_page: 30, total_count: 250, total_pages: 9 });
      for (;;) {
        byCursor.push(...body.transactions.map((x: Txn) => x.id));
        if (!body.next_cursor) break;
        body = (await list(`per_page=30&cursor=${body.next_cursor}`)).body;
        expect(body.pagination).toBeNull();
      }
      expect(byCursor).toEqual(byNumber);
      expect(byCursor).toHaveLength(250);
    });

    it('starts at the first page without a count when the cursor is empty', async () => {
      const byNumber = (await list('per_page=30&page=1')).body;
      const fromStart = (await list('per_page=30&cursor=')).body;
      expect(fromStart.pagination).toBeNull();
      expect(fromStart.transactions.map((x: Txn) => x.id)).toEqual(byNumber.transactions.map((x: Txn) => x.id));
      expect(fromStart.next_cursor).toBe(byNumber.next_cursor);
      expect((await api('get', '/transactions?per_page=30&cursor=&page=1', walker.apiKey).expect(422)).body.message).toBe('cursor and page cannot be given together: a cursor says where its page starts');
    });

    it('walks all 250 without a gap or a repeat while transactions are added', async () => {
      const seen: string[] = [];
      let body = (await list('per_page=25')).body;
      let day = 1;
      for (;;) {
        seen.push(...body.transactions.map((x: Txn) => x.id));
        // Between pages: one newer than everything, one among the rows already walked, one among those to come.
        for (const date of ['2026-11-20', `2026-10-${String(20 - Math.min(day, 19)).padStart(2, '0')}`, `2026-10-0${1 + (day % 5)}`]) {
          await api('post', '/transactions', walker.apiKey).send({ transaction: { account_id: account, date, amount: '1', name: `Added ${day}` } }).expect(201);
        }
        day++;
        if (!body.next_cursor) break;
        body = (await list(`per_page=25&cursor=${body.next_cursor}`)).body;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(originals.filter((id) => !seen.includes(id))).toEqual([]);
    });

    it('takes the filters with a cursor, and keeps to them', async () => {
      const first = (await list('per_page=5&search=Row 1')).body;
      const second = (await list(`per_page=5&search=Row 1&cursor=${first.next_cursor}`)).body;
      expect([...first.transactions, ...second.transactions].every((x: Txn) => x.name.startsWith('Row 1'))).toBe(true);
      expect(second.transactions.map((x: Txn) => x.id)).toEqual((await list('per_page=5&page=2&search=Row 1')).body.transactions.map((x: Txn) => x.id));
    });

    it.each([
      ['a cursor it did not give', 'cursor=abc', 'cursor must be a next_cursor this list gave'],
      ['a forged position', `cursor=${Buffer.from(JSON.stringify(['2026-13-01', '2026-10-01 00:00:00', randomUUID()])).toString('base64url')}`, 'cursor must be a next_cursor this list gave'],
      ['a cursor with a page', `cursor=${Buffer.from(JSON.stringify(['2026-10-01', '2026-10-01 00:00:00.5', randomUUID()])).toString('base64url')}&page=2`, 'cursor and page cannot be given together: a cursor says where its page starts'],
    ])('refuses %s by name', async (_, query, message) => {
      expect((await api('get', `/transactions?${query}`, walker.apiKey).expect(422)).body).toMatchObject({ error: 'validation_failed', message });
    });
  });
});
