import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { UsersService } from '../src/users/users.service';
import { waitForImport } from './support/imports';
import { as, signIn } from './support/sessions';
import { Household, startTestApp, TestApp } from './support/test-app';

const NOT_FOUND = { error: 'record_not_found', message: 'The requested resource was not found' };
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const line = (type: string, data: Record<string, unknown>) => JSON.stringify({ type, data });

/** Three transactions: Trip and Holiday both on the first, Corner Shop and its duplicate Corner Shop Ltd as merchants. */
const HISTORY = [
  line('Account', { id: 'acc-1', name: 'Checking', balance: '1000.00', currency: 'USD', accountable_type: 'Depository' }),
  line('Tag', { id: 'tag-1', name: 'Trip', color: '#4da568' }),
  line('Tag', { id: 'tag-2', name: 'Holiday', color: '#e99537' }),
  line('Merchant', { id: 'mer-1', name: 'Corner Shop', color: '#db5a54' }),
  line('Merchant', { id: 'mer-2', name: 'Corner Shop Ltd', color: '#db5a54' }),
  line('Transaction', { id: 'txn-1', account_id: 'acc-1', date: '2025-03-01', amount: '12.00', name: 'Snacks', merchant_id: 'mer-1', tag_ids: ['tag-1', 'tag-2'] }),
  line('Transaction', { id: 'txn-2', account_id: 'acc-1', date: '2025-03-02', amount: '30.00', name: 'Ferry', merchant_id: 'mer-2', tag_ids: ['tag-2'] }),
  line('Transaction', { id: 'txn-3', account_id: 'acc-1', date: '2025-03-03', amount: '8.00', name: 'Milk', merchant_id: 'mer-1', tag_ids: ['tag-1'] }),
].join('\n');

interface Label {
  id: string;
  name: string;
  color: string | null;
  transactions_count: number;
}

/** What each kind is called, and its names in HISTORY: the one merged away and the one kept. */
const KINDS = [
  { kind: 'tag', plural: 'tags', merged: 'Trip', kept: 'Holiday', otherName: 'Corner Shop', counts: [['Holiday', 2], ['Trip', 2]] },
  { kind: 'merchant', plural: 'merchants', merged: 'Corner Shop', kept: 'Corner Shop Ltd', otherName: 'Trip', counts: [['Corner Shop', 2], ['Corner Shop Ltd', 1]] },
] as const;

describe.each(KINDS)('$plural API', ({ kind, plural, merged, kept, otherName, counts }) => {
  let t: TestApp;
  let home: Household;
  let readKey: string;

  const get = (path: string, key = home.apiKey) => request(t.server).get(`/api/v1${path}`).set('X-Api-Key', key);
  const patch = (id: string, body: object, key = home.apiKey) => request(t.server).patch(`/api/v1/${plural}/${id}`).set('X-Api-Key', key).send(body);
  const del = (id: string, query = '', key = home.apiKey) => request(t.server).delete(`/api/v1/${plural}/${id}${query}`).set('X-Api-Key', key);
  const list = async (key = home.apiKey): Promise<Label[]> => (await get(`/${plural}`, key).expect(200)).body[plural];
  const idOf = async (name: string, key = home.apiKey) => (await list(key)).find((label) => label.name === name)!.id;
  /** Each transaction's name with its merchant and tags, as the register reads them. */
  const ledger = async (key = home.apiKey) =>
    ((await get('/transactions?per_page=100', key).expect(200)).body.transactions as Array<{ name: string; merchant: { name: string } | null; tags: Array<{ name: string }> }>)
      .map((txn) => ({ name: txn.name, merchant: txn.merchant?.name ?? null, tags: txn.tags.map((tag) => tag.name) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  const snapshot = (familyId = home.familyId) =>
    t.dataSource.query(
      `SELECT name, updated_at FROM tags WHERE family_id = $1 UNION ALL SELECT name, updated_at FROM merchants WHERE family_id = $1 ORDER BY name`,
      [familyId],
    );

  async function newHome(): Promise<Household> {
    const h = await t.newHousehold();
    const res = await request(t.server).post('/api/v1/imports').set('X-Api-Key', h.apiKey).send({ type: 'ServiceImport', raw_file_content: HISTORY, publish: 'true' }).expect(201);
    expect((await waitForImport(t.server, h.apiKey, res.body.data.id)).status).toBe('complete');
    return h;
  }

  beforeAll(async () => {
    t = await startTestApp();
    home = await newHome();
    readKey = (await t.app.get(ApiKeysService).create({ userId: home.userId, name: 'read only', scope: 'read' })).key;
  });
  afterAll(() => t.close());

  it(`lists the household's ${plural} by name, paged, with how many transactions carry each`, async () => {
    const res = await get(`/${plural}?per_page=1&page=2`).expect(200);
    expect(res.body.pagination).toEqual(expect.objectContaining({ page: 2, per_page: 1, total_count: 2, total_pages: 2 }));
    expect(res.body[plural]).toEqual([
      { id: expect.any(String), name: counts[1][0], color: expect.any(String), transactions_count: counts[1][1], transactions_count_capped: false, created_at: ISO, updated_at: ISO },
    ]);
    expect((await list()).map((label) => [label.name, label.transactions_count])).toEqual(counts);
    expect((await get(`/${plural}/${await idOf(kept)}`).expect(200)).body).toEqual((await list()).find((label) => label.name === kept));
    expect((await get(`/${plural}?sort=name`).expect(422)).body.message).toMatch(/^unknown query parameter sort;/);
  });

  it('renames, trimmed; the transactions show the new name', async () => {
    const h = await newHome();
    const id = await idOf(kept, h.apiKey);
    expect((await patch(id, { name: '  Renamed ' }, h.apiKey).expect(200)).body).toEqual(expect.objectContaining({ id, name: 'Renamed', transactions_count: counts.find(([name]) => name === kept)![1] }));
    const shown = (await ledger(h.apiKey)).flatMap((txn) => (kind === 'tag' ? txn.tags : [txn.merchant]));
    expect(shown).toContain('Renamed');
    expect(shown).not.toContain(kept);
  });

  it('422 naming the field for a missing, empty, too long or taken name, taken saying how to merge; nothing changes', async () => {
    const [id, otherId] = [await idOf(kept), await idOf(merged)];
    const before = await snapshot();
    expect((await patch(id, {}).expect(422)).body.errors).toEqual(expect.arrayContaining(['name must be a string']));
    expect((await patch(id, { name: '   ' }).expect(422)).body.errors).toEqual(['name must be 1 to 200 characters']);
    expect((await patch(id, { name: 'x'.repeat(201) }).expect(422)).body.errors).toEqual(['name must be 1 to 200 characters']);
    expect((await patch(id, { name: null }).expect(422)).body.errors).toEqual(expect.arrayContaining(['name must be a string']));
    const taken = await patch(id, { name: merged }).expect(422);
    expect(taken.body).toEqual({
      error: 'validation_failed',
      message: `name is already used by another ${kind} of this household: ${merged}; to make them one, merge with DELETE /api/v1/${plural}/${id}?replacement_id=${otherId}`,
      errors: [expect.stringContaining('name is already used')],
    });
    // Its own name again is no change, and no refusal.
    await patch(id, { name: kept }).expect(200);
    expect(await snapshot()).toEqual(before);
  });

  it('merges into another: its transactions carry the replacement, once each; audited', async () => {
    const h = await newHome();
    const [from, to] = [await idOf(merged, h.apiKey), await idOf(kept, h.apiKey)];
    const res = await del(from, `?replacement_id=${to}`, h.apiKey).expect(200);
    expect(res.body).toEqual({ id: from, replacement_id: to, transactions_moved: 2 });
    expect(await ledger(h.apiKey)).toEqual(
      kind === 'tag'
        ? [
            { name: 'Ferry', merchant: 'Corner Shop Ltd', tags: ['Holiday'] },
            { name: 'Milk', merchant: 'Corner Shop', tags: ['Holiday'] },
            { name: 'Snacks', merchant: 'Corner Shop', tags: ['Holiday'] },
          ]
        : [
            { name: 'Ferry', merchant: 'Corner Shop Ltd', tags: ['Holiday'] },
            { name: 'Milk', merchant: 'Corner Shop Ltd', tags: ['Trip'] },
            { name: 'Snacks', merchant: 'Corner Shop Ltd', tags: ['Holiday', 'Trip'] },
          ],
    );
    expect((await list(h.apiKey)).map((label) => [label.name, label.transactions_count])).toEqual([[kept, 3]]);
    await get(`/${plural}/${from}`, h.apiKey).expect(404);
    const [audit] = await t.dataSource.query(`SELECT user_id, details FROM audit_logs WHERE family_id = $1 AND event = $2`, [h.familyId, `${kind}_deleted`]);
    expect(audit).toEqual({ user_id: h.userId, details: expect.objectContaining({ [`${kind}_id`]: from, name: merged, replacement_id: to, transactions_moved: 2 }) });
  });

  it('deletes without a replacement: the transactions stay, without it', async () => {
    const h = await newHome();
    const id = await idOf(merged, h.apiKey);
    expect((await del(id, '', h.apiKey).expect(200)).body).toEqual({ id, replacement_id: null, transactions_moved: 2 });
    const left = await ledger(h.apiKey);
    expect(left.map((txn) => txn.name)).toEqual(['Ferry', 'Milk', 'Snacks']);
    expect(left.flatMap((txn) => (kind === 'tag' ? txn.tags : [txn.merchant]))).not.toContain(merged);
  });

  it('422 before any change for a replacement that is itself, malformed, of another kind, or a misspelt parameter', async () => {
    const id = await idOf(merged);
    const otherKind = (await get(`/${kind === 'tag' ? 'merchants' : 'tags'}`).expect(200)).body[kind === 'tag' ? 'merchants' : 'tags'].find((label: Label) => label.name === otherName).id;
    const before = [await snapshot(), await ledger()];
    expect((await del(id, `?replacement_id=${id}`).expect(422)).body.message).toBe(`replacement_id must be another ${kind} than the one deleted`);
    expect((await del(id, '?replacement_id=nope').expect(422)).body.message).toBe('replacement_id must be a valid UUID');
    expect((await del(id, `?replacement_id=${otherKind}`).expect(422)).body.message).toBe(`replacement_id is not a ${kind} of this household`);
    expect((await del(id, `?replacement=${otherKind}`).expect(422)).body.message).toMatch(/^unknown query parameter replacement;/);
    expect((await del(randomUUID()).expect(404)).body).toEqual(NOT_FOUND);
    expect((await patch('nope', { name: 'x' }).expect(404)).body).toEqual(NOT_FOUND);
    expect([await snapshot(), await ledger()]).toEqual(before);
  });

  it('a read key reads but cannot write; a member manages them, as categories; nothing without credentials', async () => {
    const id = await idOf(kept);
    expect((await list(readKey)).length).toBe(2);
    const before = await snapshot();
    const refused = { error: 'insufficient_scope', message: "This action requires the 'write' scope" };
    expect((await patch(id, { name: 'Read only' }, readKey).expect(403)).body).toEqual(refused);
    expect((await del(id, '', readKey).expect(403)).body).toEqual(refused);
    expect(await snapshot()).toEqual(before);
    await request(t.server).get(`/api/v1/${plural}`).expect(401);

    const h = await newHome();
    const { user } = await t.app.get(UsersService).create({ email: `member-${randomUUID()}@example.com`, password: 'correct horse battery', role: 'member', familyId: h.familyId });
    const browser = await signIn(t.server, user.email);
    const [from, to] = [await idOf(merged, h.apiKey), await idOf(kept, h.apiKey)];
    await as(t.server, browser, 'patch', `/api/v1/${plural}/${to}`).send({ name: 'By a member' }).expect(200);
    await as(t.server, browser, 'delete', `/api/v1/${plural}/${from}?replacement_id=${to}`).expect(200);
    expect((await list(h.apiKey)).map((label) => label.name)).toEqual(['By a member']);
  });

  it("answers 404 for another family's, refuses it as a replacement, and lists none of it; nothing changes", async () => {
    const other = await newHome();
    const [mine, theirs] = [await idOf(kept), await idOf(merged, other.apiKey)];
    const before = [await snapshot(), await snapshot(other.familyId), await ledger(), await ledger(other.apiKey)];
    expect((await get(`/${plural}/${mine}`, other.apiKey).expect(404)).body).toEqual(NOT_FOUND);
    expect((await patch(mine, { name: 'Stolen' }, other.apiKey).expect(404)).body).toEqual(NOT_FOUND);
    expect((await del(mine, '', other.apiKey).expect(404)).body).toEqual(NOT_FOUND);
    expect((await del(theirs, `?replacement_id=${mine}`, other.apiKey).expect(422)).body.message).toBe(`replacement_id is not a ${kind} of this household`);
    expect((await del(mine, `?replacement_id=${theirs}`).expect(422)).body.message).toBe(`replacement_id is not a ${kind} of this household`);
    expect(JSON.stringify((await get(`/${plural}`, other.apiKey)).body)).not.toContain(mine);
    expect([await snapshot(), await snapshot(other.familyId), await ledger(), await ledger(other.apiKey)]).toEqual(before);
  });

  if (kind === 'merchant') {
    it("leaves merchants a data provider shares between households alone: not listed, not renamed", async () => {
      const [{ id }] = await t.dataSource.query(`INSERT INTO merchants (family_id, type, name) VALUES (NULL, 'ProviderMerchant', $1) RETURNING id`, [`Provider ${randomUUID()}`]);
      expect(JSON.stringify(await list())).not.toContain(id);
      expect((await patch(id, { name: 'Mine now' }).expect(404)).body).toEqual(NOT_FOUND);
      expect((await del(await idOf(kept), `?replacement_id=${id}`).expect(422)).body.message).toBe('replacement_id is not a merchant of this household');
    });
  }
});
