import { createImport, waitForImport } from './support/imports';
import { Household, startTestApp, TestApp } from './support/test-app';

// Publishing and reverting against the family's other data: messages a user can act on, records shared with other
// imports, mappings gone stale before publish, and what a re-import changes.

describe('imports: publishing and reverting alongside other data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const q = (sql: string, params: unknown[] = []) => t.dataSource.query(sql, params);
  async function publishAndWait(h: Household, body: Record<string, unknown>) {
    const res = await createImport(t.server, h.apiKey, { ...body, publish: 'true' }).expect(201);
    return waitForImport(t.server, h.apiKey, res.body.data.id);
  }
  describe('errors', () => {
    it("shows a publisher's own message in error, and only the generic one for anything else", async () => {
      const h = await t.newHousehold();
      const selfParent = await publishAndWait(h, { type: 'CategoryImport', raw_file_content: 'name,parent_category\nA,A' });
      expect({ status: selfParent.status, error: selfParent.error }).toEqual({ status: 'failed', error: "Row 1: category 'A' cannot be its own parent" });

      await q(`CREATE OR REPLACE FUNCTION hearth_test_fail_merchant() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.family_id = '${h.familyId}' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`);
      await q(`CREATE TRIGGER hearth_test_fail_merchant BEFORE INSERT ON merchants FOR EACH ROW EXECUTE FUNCTION hearth_test_fail_merchant()`);
      try {
        const internal = await publishAndWait(h, { type: 'MerchantImport', raw_file_content: 'name\nShop' });
        expect(internal.status).toBe('failed');
        expect(internal.error).toMatch(/^Publishing stopped on an internal error/);
      } finally {
        await q(`DROP TRIGGER hearth_test_fail_merchant ON merchants`);
        await q(`DROP FUNCTION hearth_test_fail_merchant()`);
      }
    });
  });
});
