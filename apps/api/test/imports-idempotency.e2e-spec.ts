import request from 'supertest';
import { ImportsProcessor } from '../src/imports/imports.processor';
import { newAccount, waitForImport } from './support/imports';
import { Household, startTestApp, TestApp } from './support/test-app';

// POST /imports with an Idempotency-Key: a client that sends a request again (its answer was lost, a double submit)
// gets the first answer, and the family one import.

describe('imports: Idempotency-Key on POST /imports', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const csv = (tag: string, rows = 3) =>
    ['date,amount,name', ...Array.from({ length: rows }, (_, i) => `2024-03-${String((i % 28) + 1).padStart(2, '0')},-${i + 1}.50,${tag} ${i}`)].join('\n');
  const post = (h: Household, body: object, key?: string) => {
    const req = request(t.server).post('/api/v1/imports').set('X-Api-Key', h.apiKey);
    return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
  };
  const importsOf = async (h: Household) =>
    (await t.dataSource.query(`SELECT id FROM imports WHERE family_id = $1 ORDER BY created_at`, [h.familyId])).map((r: { id: string }) => r.id);

  it('answers a repeated request with the first answer and stores one import', async () => {
    const h = await t.newHousehold();
    const body = { raw_file_content: csv('Bakery'), account_id: await newAccount(t, h), publish: 'true' };
    const first = await post(h, body, 'order-7f3a').expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await waitForImport(t.server, h.apiKey, first.body.data.id)).toMatchObject({ status: 'complete' });

    const again = await post(h, body, 'order-7f3a').expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await importsOf(h)).toEqual([first.body.data.id]);
    const [{ entries }] = await t.dataSource.query(`SELECT count(*)::int AS entries FROM entries WHERE family_id = $1`, [h.familyId]);
    expect(entries).toBe(3);
  });

  it('stores one import for requests with one key sent at once, and each gets that import', async () => {
    const h = await t.newHousehold();
    const body = { raw_file_content: csv('Grocer', 40), account_id: await newAccount(t, h), publish: 'true' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(h, body, 'double-submit')));
    expect(answers.map((a) => [a.status, a.status === 201 ? '' : JSON.stringify(a.body)])).toEqual(Array(5).fill([201, '']));
    const ids = new Set(answers.map((a) => a.body.data.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
    expect(await importsOf(h)).toEqual([...ids]);
  });

  it('refuses the same key with another body, and keeps keys apart per family', async () => {
    const h = await t.newHousehold();
    const other = await t.newHousehold();
    const first = await post(h, { raw_file_content: csv('Cafe') }, 'shared-key').expect(201);
    const reused = await post(h, { raw_file_content: csv('Diner') }, 'shared-key').expect(422);
    expect(reused.body).toMatchObject({ error: 'idempotency_key_reused', message: expect.stringContaining('Idempotency-Key') });
    expect(await importsOf(h)).toEqual([first.body.data.id]);

    const theirs = await post(other, { raw_file_content: csv('Cafe') }, 'shared-key').expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.data.id).not.toBe(first.body.data.id);
  });

  it('refuses a malformed key with 422 naming the header, storing nothing', async () => {
    const h = await t.newHousehold();
    for (const key of ['has space', 'x'.repeat(256), 'caf\u00e9']) {
      const res = await post(h, { raw_file_content: csv('Shop') }, key);
      expect([key.length, res.status, res.body.error, res.body.errors?.[0]]).toEqual([key.length, 422, 'validation_failed', expect.stringContaining('Idempotency-Key')]);
    }
    expect(await importsOf(h)).toEqual([]);
  });

  it('replays a refusal that stored the import (not publishable), so a retry does not store it twice', async () => {
    const h = await t.newHousehold();
    // No account: stored, but not publishable (422 with its import_id).
    const body = { raw_file_content: csv('Nowhere'), publish: 'true' };
    const first = await post(h, body, 'no-account').expect(422);
    expect(first.body).toMatchObject({ error: 'not_publishable', import_id: expect.any(String) });
    const again = await post(h, body, 'no-account').expect(422);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await importsOf(h)).toEqual([first.body.import_id]);
  });

  it('replays a multipart upload by its file, and a key older than 24 hours starts afresh and is cleaned away', async () => {
    const h = await t.newHousehold();
    const upload = (content: string) =>
      request(t.server).post('/api/v1/imports').set('X-Api-Key', h.apiKey).set('Idempotency-Key', 'file-1').attach('file', Buffer.from(content), 'bank.csv');
    const first = await upload(csv('Upload')).expect(201);
    expect((await upload(csv('Upload')).expect(201)).body).toEqual(first.body);
    expect((await upload(csv('Changed')).expect(422)).body.error).toBe('idempotency_key_reused');

    await t.dataSource.query(`UPDATE import_idempotency_keys SET created_at = now() - interval '25 hours' WHERE family_id = $1`, [h.familyId]);
    const fresh = await upload(csv('Changed')).expect(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(await importsOf(h)).toEqual([first.body.data.id, fresh.body.data.id]);

    await t.dataSource.query(`UPDATE import_idempotency_keys SET created_at = now() - interval '25 hours' WHERE family_id = $1`, [h.familyId]);
    await t.app.get(ImportsProcessor).reap();
    expect(await t.dataSource.query(`SELECT key FROM import_idempotency_keys WHERE family_id = $1`, [h.familyId])).toEqual([]);
  });
});
