/* global Headers */
// B. Family isolation (IDOR / BOLA): F1 credentials against F2 objects.
import { randomUUID } from 'node:crypto';

const NOT_FOUND = { status: 404, error: 'record_not_found' };

/** A check that the 422 names `param` as a parameter the list does not take. */
const names = (param) => (res) => (res.json?.errors?.some((e) => e.startsWith(`unknown query parameter ${param};`)) ? null : `${param} not named: ${res.text.slice(0, 200)}`);

export default (ctx) => {
  const f2Budget = () => ctx.f2ids.budgets[0];
  const f2Import = () => ctx.f2ids.imports[0];
  const f2Account = () => ctx.f2ids.accounts[0];
  const cases = [
    {
      id: 'B12a',
      title: "F2 budget id -> 404 record_not_found, byte-identical to a random UUID's 404",
      run: async () => {
        const random = await ctx.req({ path: `/api/v1/budgets/${randomUUID()}`, key: ctx.keys.f1read });
        const victim = await ctx.req({ path: `/api/v1/budgets/${f2Budget()}`, key: ctx.keys.f1read });
        victim.oracle = random.text !== victim.text || random.status !== victim.status ? `bodies differ: ${random.text} vs ${victim.text}` : null;
        return victim;
      },
      expect: NOT_FOUND,
      check: (res) => res.oracle,
    },
    { id: 'B12b', title: 'F2 budget through a session of F1', req: () => ({ path: `/api/v1/budgets/${f2Budget()}`, session: ctx.sessions.f1admin }), expect: NOT_FOUND },
    { id: 'B12c', title: 'PATCH F2 budget with an F1 read_write key', req: () => ({ method: 'PATCH', path: `/api/v1/budgets/${f2Budget()}`, key: ctx.keys.f1rw, json: { budgeted_spending: '1.00' } }), expect: NOT_FOUND },
    { id: 'B12d', title: 'F2 budget category', req: () => ({ path: `/api/v1/budget_categories/${ctx.f2ids.budgetCategories[0] ?? randomUUID()}`, key: ctx.keys.f1read }), expect: NOT_FOUND },
    { id: 'B12e', title: 'PATCH F2 budget category', req: () => ({ method: 'PATCH', path: `/api/v1/budget_categories/${ctx.f2ids.budgetCategories[0] ?? randomUUID()}`, key: ctx.keys.f1rw, json: { budgeted_spending: '5.00' } }), expect: NOT_FOUND },
    ...[
      ['B13a', 'not-a-uuid'],
      ['B13b', '00000000-0000-0000-0000-000000000000'],
      ['B13c', 'F2ID%00'],
      ['B13d', 'F2ID/../x'],
      ['B13e', 'F2ID%2F..%2Fx'],
      ['B13f', "1' OR '1'='1"],
      ['B13g', 'F2ID.json'],
      ['B13h', 'F2ID '],
    ].map(([id, raw]) => ({
      id,
      title: `GET /budgets/${raw}`,
      req: () => ({ path: `/api/v1/budgets/${encodeURI(raw.replace('F2ID', f2Budget())).replace(/%25/g, '%')}`, key: ctx.keys.f1read }),
      expect: NOT_FOUND,
    })),
    { id: 'B14', title: "another member's personal budget", notRun: 'not applicable: Hearth has one household budget per month, no personal or shared budgets' },
    { id: 'B15a', title: 'GET F2 import', req: () => ({ path: `/api/v1/imports/${f2Import()}`, key: ctx.keys.f1read }), expect: NOT_FOUND },
    { id: 'B15b', title: 'GET F2 import rows', req: () => ({ path: `/api/v1/imports/${f2Import()}/rows`, key: ctx.keys.f1read }), expect: NOT_FOUND },
    { id: 'B15c', title: 'PATCH F2 import', req: () => ({ method: 'PATCH', path: `/api/v1/imports/${ctx.f2ids.imports[1]}`, key: ctx.keys.f1rw, json: { date_format: '%d/%m/%Y' } }), expect: NOT_FOUND },
    { id: 'B15d', title: 'publish F2 pending import', req: () => ({ method: 'POST', path: `/api/v1/imports/${ctx.f2ids.imports[1]}/publish`, key: ctx.keys.f1rw }), expect: NOT_FOUND },
    { id: 'B15e', title: 'revert F2 complete import', req: () => ({ method: 'POST', path: `/api/v1/imports/${f2Import()}/revert`, key: ctx.keys.f1rw }), expect: NOT_FOUND },
    {
      id: 'B15f',
      title: 'list imports with status/type filters never lists F2',
      req: () => ({ path: '/api/v1/imports?status=complete&type=ServiceImport&per_page=100', key: ctx.keys.f1read }),
      expect: { status: 200 },
    },
    { id: 'B15g', title: 'list imports with an unknown status value', req: () => ({ path: '/api/v1/imports?status=hacked', key: ctx.keys.f1read }), expect: { status: [200, 400, 422] }, check: (res) => (res.status === 200 && res.json?.data?.length ? 'unknown status widened the list' : null) },
    { id: 'B15h', title: 'list imports with array-valued filters -> 422 naming status[]', req: () => ({ path: '/api/v1/imports?status[]=complete&status[]=pending&type[$ne]=x', key: ctx.keys.f1read }), expect: { status: 422, error: 'validation_failed' }, check: names('status[]') },
    {
      id: 'B16a',
      title: 'POST /imports with an F2 account_id -> 422, nothing written',
      req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, json: { raw_file_content: 'date,amount\n2024-01-01,1', account_id: f2Account(), publish: 'true' } }),
      expect: { status: 422, error: 'validation_failed' },
      check: async () => ((await ctx.q(`SELECT count(*)::int AS n FROM imports WHERE account_id = $1 AND family_id <> $2`, [f2Account(), ctx.f2]))[0].n ? 'an import of another family points at the F2 account' : null),
    },
    { id: 'B16b', title: 'POST /imports with a well-formed nonexistent account_id', req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, json: { raw_file_content: 'date,amount\n2024-01-01,1', account_id: randomUUID() } }), expect: { status: 422, error: 'validation_failed' } },
    { id: 'B16c', title: 'POST /imports with account_id "not-a-uuid"', req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, json: { raw_file_content: 'date,amount\n2024-01-01,1', account_id: 'not-a-uuid' } }), expect: { status: 422, error: 'validation_failed' } },
    {
      id: 'B16d',
      title: 'PATCH own import to point at an F2 account',
      run: async () => {
        const created = await ctx.req({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, json: { raw_file_content: 'date,amount\n2024-01-01,1', account_id: ctx.f1Account } });
        return ctx.req({ method: 'PATCH', path: `/api/v1/imports/${created.json.data.id}`, key: ctx.keys.f1rw, json: { account_id: f2Account() } });
      },
      expect: { status: 422 },
    },
    {
      id: 'B17a',
      title: 'NDJSON Transaction with the real UUID of an F2 account and no Account line -> preflight_failed',
      req: () => ({
        method: 'POST',
        path: '/api/v1/imports',
        key: ctx.keys.f1rw,
        json: { type: 'ServiceImport', publish: 'true', raw_file_content: JSON.stringify({ type: 'Transaction', data: { id: 't1', account_id: f2Account(), date: '2025-01-01', amount: '1', name: 'x' } }) },
      }),
      expect: { status: 422, error: 'preflight_failed' },
      check: (res) => (res.json?.errors?.some((e) => /missing account_id/.test(e)) ? null : `errors ${JSON.stringify(res.json?.errors)}`),
    },
    {
      id: 'B17b',
      title: 'NDJSON with an Account line reusing the F2 account UUID -> a new F1 account, F2 untouched',
      run: async () => {
        const text = [
          JSON.stringify({ type: 'Account', data: { id: f2Account(), name: 'Mine now', balance: '1', currency: 'USD', accountable_type: 'Depository' } }),
          JSON.stringify({ type: 'Transaction', data: { id: 't1', account_id: f2Account(), date: '2025-01-01', amount: '1', name: 'x' } }),
        ].join('\n');
        const res = await ctx.req({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, json: { type: 'ServiceImport', publish: 'true', raw_file_content: text } });
        if (res.status !== 201) return res;
        const done = await ctx.waitImport(ctx.keys.f1rw, res.json.data.id);
        res.final = done.status;
        return res;
      },
      expect: { status: 201 },
      check: async (res) => {
        const [row] = await ctx.q(`SELECT family_id FROM accounts WHERE name = 'Mine now' ORDER BY created_at DESC LIMIT 1`);
        if (res.final !== 'complete') return `import ended ${res.final}`;
        return row?.family_id === ctx.f1 ? null : 'no new F1 account';
      },
    },
    { id: 'B18a', title: 'member session on family-wide admin data (/admin/users)', req: () => ({ path: '/api/v1/admin/users', session: ctx.sessions.f1member }), expect: { status: 403, error: 'forbidden' } },
    { id: 'B18b', title: 'member session on family exports (admin only)', req: () => ({ method: 'POST', path: '/api/v1/family_exports', session: ctx.sessions.f1member, json: {} }), expect: { status: 403, error: 'forbidden' } },
    { id: 'B18c', title: 'member session on family settings change (admins only)', req: () => ({ method: 'PATCH', path: '/api/v1/family_settings', session: ctx.sessions.f1member, json: { name: 'x' } }), expect: { status: 403, error: 'forbidden' } },
    { id: 'B18c2', title: "member's read_write key on family settings change (admins only)", req: () => ({ method: 'PATCH', path: '/api/v1/family_settings', key: ctx.keys.f1memberRw, json: { currency: 'EUR' } }), expect: { status: 403, error: 'forbidden' } },
    { id: 'B18d', title: 'family admin reading a user of F2 (/admin/users/{F2 user})', req: () => ({ path: `/api/v1/admin/users/${ctx.users.f2admin.id}`, session: ctx.sessions.f1admin }), expect: NOT_FOUND },
    { id: 'B18e', title: 'family admin reading auth history of an F2 user', req: () => ({ path: `/api/v1/admin/users/${ctx.users.f2admin.id}/auth_history`, session: ctx.sessions.f1admin }), expect: NOT_FOUND },
    { id: 'B19a', title: 'budget_categories filtered by an F2 budget_id -> empty', req: () => ({ path: `/api/v1/budget_categories?budget_id=${f2Budget()}`, key: ctx.keys.f1read }), expect: { status: [200, 404] }, check: (res) => (res.status === 200 && res.json?.budget_categories?.length ? 'F2 rows listed' : null) },
    { id: 'B19b', title: 'budget_categories filtered by an F2 category_id -> empty', req: () => ({ path: `/api/v1/budget_categories?category_id=${ctx.f2ids.categories[0]}`, key: ctx.keys.f1read }), expect: { status: [200, 404] }, check: (res) => (res.status === 200 && res.json?.budget_categories?.length ? 'F2 rows listed' : null) },
    { id: 'B19c', title: 'budgets list with F2 date range', req: () => ({ path: '/api/v1/budgets?start_date=2025-01-01&end_date=2025-12-31', key: ctx.keys.f1read }), expect: { status: 200 } },
    { id: 'B19d', title: 'admin users search by F2 e-mail (family admin)', req: () => ({ path: `/api/v1/admin/users?q=${encodeURIComponent(ctx.users.f2admin.email)}`, session: ctx.sessions.f1admin }), expect: { status: 200 }, check: (res) => (res.json?.users?.length ? 'F2 user listed' : null) },
    { id: 'B19e', title: 'family export download of an F2-shaped id', req: () => ({ path: `/api/v1/family_exports/${f2Import()}/download`, key: ctx.keys.f1read }), expect: NOT_FOUND },
    // A filter a list does not take would be dropped, and the list answered unfiltered as if it had been applied.
    { id: 'B19f', title: "transactions by Sure's unbracketed account_ids=<F2 account> -> 422 naming it, not every F1 row", req: () => ({ path: `/api/v1/transactions?account_ids=${f2Account()}`, key: ctx.keys.f1read }), expect: { status: 422, error: 'validation_failed' }, check: names('account_ids') },
    { id: 'B19g', title: 'budget_categories by a misspelt budget=<F2 budget> -> 422 naming it', req: () => ({ path: `/api/v1/budget_categories?budget=${f2Budget()}`, key: ctx.keys.f1read }), expect: { status: 422, error: 'validation_failed' }, check: names('budget') },
    { id: 'B19h', title: 'prototype-named query parameters on a list -> 422, never 500', req: () => ({ path: '/api/v1/budgets?__proto__[page]=2&constructor[prototype]=x&toString=1', key: ctx.keys.f1read }), expect: { status: 422, error: 'validation_failed' }, check: names('__proto__[page]') },
    { id: 'B21', title: 'two families importing concurrently', run: (c) => concurrentImports(c), expect: { status: 201 }, check: (res) => res.problem },
  ];
  // B20: leak sweep over every route of the OpenAPI document with every F2 id the harness knows.
  cases.push({ id: 'B20', title: 'leak sweep: every OpenAPI route as F1 (key and session) with every F2 id', run: (c) => leakSweep(c), expect: { status: 200 }, check: (res) => res.problem });
  return cases;
};

async function leakSweep(ctx) {
  const doc = (await ctx.req({ path: '/api/v1/openapi.json' })).json;
  const ids = [...new Set(Object.values(ctx.f2ids).flat())];
  const problems = [];
  let calls = 0;
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const method of Object.keys(ops)) {
      if (!path.includes('{')) {
        if (method !== 'get') continue;
        for (const auth of [{ key: ctx.keys.f1read }, { session: ctx.sessions.f1admin }]) {
          const res = await ctx.req({ path, ...auth });
          calls += 1;
          if (res.status >= 500) problems.push(`${method} ${path} -> ${res.status}`);
        }
        continue;
      }
      for (const id of ids) {
        const concrete = path.replace(/\{[^}]+\}/g, id);
        for (const auth of [{ key: ctx.keys.f1rw }, { session: ctx.sessions.f1admin }]) {
          const res = await ctx.req({ method: method.toUpperCase(), path: concrete, json: method === 'get' ? undefined : {}, ...auth });
          calls += 1;
          if (res.status >= 500) problems.push(`${method} ${concrete} -> ${res.status}`);
          if (res.status >= 200 && res.status < 300) problems.push(`${method} ${concrete} -> ${res.status} (F1 reached an F2 object)`);
        }
      }
    }
  }
  // Leaks in any body are found by the runner's scan of every recorded response.
  return { status: 200, json: null, headers: new Headers(), text: '', problem: problems.length ? problems.slice(0, 5).join('; ') : null, calls, sweep: true };
}

async function concurrentImports(ctx) {
  const csv = (tag) => 'date,amount,name\n' + Array.from({ length: 20 }, (_, i) => `2024-05-${String((i % 28) + 1).padStart(2, '0')},${i + 1}.11,${tag} row ${i}`).join('\n');
  const families = [
    { key: ctx.keys.f1rw, account: ctx.f1Account, family: ctx.f1 },
    { key: ctx.keys.f3rw, account: ctx.f3Account, family: ctx.f3 },
  ];
  const jobs = [];
  for (let i = 0; i < 25; i += 1) {
    for (const f of families) {
      jobs.push(
        ctx
          .req({ method: 'POST', path: '/api/v1/imports', key: f.key, json: { raw_file_content: csv(`conc${ctx.run}-${f.family.slice(0, 4)}-${i}`), account_id: f.account, publish: 'true' } })
          .then((res) => ({ res, f })),
      );
    }
  }
  const results = await Promise.all(jobs);
  const bad = results.find((r) => r.res.status !== 201);
  if (bad) return bad.res;
  const done = await Promise.all(results.map((r) => ctx.waitImport(r.f.key, r.res.json.data.id)));
  const ids = results.map((r) => r.res.json.data.id);
  const counts = await ctx.q(
    `SELECT i.id, count(e.id)::int AS n, count(*) FILTER (WHERE e.family_id <> i.family_id OR a.family_id <> i.family_id)::int AS wrong
       FROM imports i LEFT JOIN entries e ON e.import_id = i.id LEFT JOIN accounts a ON a.id = e.account_id WHERE i.id = ANY($1) GROUP BY i.id`,
    [ids],
  );
  const res = results[0].res;
  const statuses = [...new Set(done.map((d) => d.status))];
  const wrong = counts.reduce((n, c) => n + c.wrong, 0);
  const short = counts.filter((c) => c.n !== 20);
  res.problem = statuses.join() !== 'complete' ? `statuses ${statuses} (${done.find((d) => d.status !== 'complete')?.error})` : wrong ? `${wrong} entries with a mismatched family_id` : short.length ? `${short.length} imports without exactly their 20 entries` : null;
  return res;
}
