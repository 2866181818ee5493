// D. NDJSON (ServiceImport).
const line = (type, data) => JSON.stringify({ type, data });
const tag = (id, name) => line('Tag', { id, name });
const account = (id = 'a1') => line('Account', { id, name: `Acc ${id}`, balance: '0', currency: 'USD', accountable_type: 'Depository' });

export default (ctx) => {
  let n = 0;
  const uniq = () => `${ctx.run}-${(n += 1)}`;
  const nd = (text, publish = true) => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, json: { type: 'ServiceImport', raw_file_content: text, ...(publish ? { publish: 'true' } : {}) } });
  const preflight = { status: 422, error: 'preflight_failed' };
  const errorsMatch = (re) => (res) => (res.json?.errors?.some((e) => re.test(e)) ? null : `errors ${JSON.stringify(res.json?.errors)?.slice(0, 300)}`);
  const importKept = async (res) => {
    if (!res.json?.import_id) return 'no import_id';
    const detail = await ctx.req({ path: `/api/v1/imports/${res.json.import_id}`, key: ctx.keys.f1read });
    return detail.json?.data?.status === 'failed' ? null : `import status ${detail.json?.data?.status}`;
  };
  const firstLines = ['[]', '42', '"x"', 'null', '{"type":"Account"}', '{"type":"","data":{}}'];
  return [
    {
      id: 'D39',
      title: 'line 3 invalid JSON -> preflight_failed naming line 3, import kept failed with import_id',
      req: () => nd([tag('t1', `One ${uniq()}`), tag('t2', `Two ${uniq()}`), '{"type":"Account",', tag('t3', `Three ${uniq()}`)].join('\n')),
      expect: preflight,
      check: async (res) => errorsMatch(/^Line 3 is not valid JSON/)(res) ?? (await importKept(res)),
    },
    ...firstLines.map((first, i) => ({
      id: `D40${String.fromCharCode(97 + i)}`,
      title: `first line ${first} -> invalid_ndjson at create, nothing stored`,
      req: () => nd(`${first}\n${tag('t', `x ${uniq()}`)}`, false),
      expect: { status: 422, error: 'invalid_ndjson' },
      check: (res) => (res.json?.import_id ? 'import_id on a refused create' : null),
    })),
    { id: 'D40g', title: 'later non-record lines -> invalid_ndjson_record with line numbers', req: () => nd([tag('t', `x ${uniq()}`), ...firstLines].join('\n')), expect: preflight, check: errorsMatch(/^Line 2 must be a JSON object/) },
    { id: 'D40h', title: 'leading blank line, CRLF and trailing newline are accepted (decided)', req: () => nd(`\r\n${tag('t1', `Crlf ${uniq()}`)}\r\n${tag('t2', `Lf ${uniq()}`)}\r\n`), expect: { status: 201 } },
    { id: 'D41a', title: 'unknown type Kernel, wrong-case account -> unsupported record type', req: () => nd([tag('t', `x ${uniq()}`), line('Kernel', {}), line('account', { id: 'a' })].join('\n')), expect: preflight, check: errorsMatch(/unsupported record type "Kernel"/) },
    { id: 'D41b', title: 'only unknown types -> not_publishable', req: () => nd([line('Kernel', {}), line('Shell', {})].join('\n')), expect: { status: 422, error: 'not_publishable' } },
    { id: 'D42a', title: 'one 9.9 MB line -> invalid_ndjson (per-line cap 1 MB)', req: () => nd(line('Tag', { id: 'big', name: 'Big', notes: 'x'.repeat(9.9 * 1024 * 1024) }), false), expect: { status: 422, error: 'invalid_ndjson' } },
    { id: 'D42b', title: 'a 9.9 MB second line -> preflight "larger than 1 MB"', req: () => nd(`${tag('t', `x ${uniq()}`)}\n${line('Tag', { id: 'big', name: 'Big', notes: 'x'.repeat(9.9 * 1024 * 1024) })}`), expect: preflight, check: errorsMatch(/larger than 1 MB/) },
    { id: 'D42c', title: '1,000 lines of 10 KB upload in bounded time', req: () => nd(Array.from({ length: 1000 }, (_, i) => line('Tag', { id: `w${i}`, name: `Wide ${uniq()}`, notes: 'y'.repeat(10_000) })).join('\n'), false), expect: { status: 201 } },
    { id: 'D43a', title: '100,000 levels of nesting on the first line -> 422', req: () => nd(`{"type":"Tag","data":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`, false), expect: { status: 422, error: 'invalid_ndjson' } },
    { id: 'D43b', title: '100,000 levels of nesting on line 2 -> preflight', req: () => nd(`${tag('t', `x ${uniq()}`)}\n{"type":"Tag","data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`), expect: preflight, check: errorsMatch(/deeper than/) },
    { id: 'D43c', title: 'deeply nested JSON request body (not the content) -> 4xx', req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, headers: { 'content-type': 'application/json' }, body: `{"type":"ServiceImport","x":${'['.repeat(50_000)}${']'.repeat(50_000)},"raw_file_content":"${tag('t', 'n').replace(/"/g, '\\"')}"}` }), expect: { status: [201, 400, 413, 422] } },
    {
      id: 'D44a',
      title: 'references to ids not in the file -> missing_reference',
      req: () => nd([account(), line('Transaction', { id: 'x1', account_id: 'ghost', date: '2025-01-01', amount: '1', category_id: 'c?', tag_ids: ['t?'] })].join('\n')),
      expect: preflight,
      check: errorsMatch(/references missing account_id "ghost"/),
    },
    { id: 'D44b', title: 'RejectedTransfer with missing references is only a warning', run: async () => { const res = await ctx.req(nd([account(`r${uniq()}`), line('RejectedTransfer', { inflow_transaction_id: 'gone', outflow_transaction_id: 'away' })].join('\n'))); if (res.status === 201) res.final = (await ctx.waitImport(ctx.keys.f1rw, res.json.data.id)).status; return res; }, expect: { status: 201 }, check: (res) => (res.final === 'complete' ? null : `ended ${res.final}`) },
    { id: 'D45a', title: 'duplicate source ids -> duplicate_source_id', req: () => nd([account('a1'), account('a1')].join('\n')), expect: preflight, check: errorsMatch(/appears more than once/) },
    { id: 'D45b', title: 'duplicate taxonomy names', req: () => { const name = `Same ${uniq()}`; return nd([tag('t1', name), tag('t2', name)].join('\n')); }, expect: preflight, check: errorsMatch(/appears more than once in the NDJSON/) },
    { id: 'D45c', title: 'existing taxonomy collision', req: () => nd(line('Category', { id: 'c1', name: 'Attacker coffee cat' }) + '\n' + line('Category', { id: 'c2', name: 'Attacker coffee cat' })), expect: preflight },
    {
      id: 'D46',
      title: '__proto__ / constructor keys dropped, no prototype pollution in API or worker',
      run: async () => {
        const name = `Proto ${uniq()}`;
        const text = [
          `{"type":"Account","data":{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},"id":"a1","name":"${name}","balance":"1","accountable_type":"Depository","accountable":{"__proto__":{"isAdmin":true},"subtype":"checking"}}}`,
          '{"type":"Transaction","data":{"id":"t1","account_id":"a1","date":"2025-01-01","amount":"1","split_lines":[{"__proto__":{"x":1},"amount":"1"}]}}',
        ].join('\n');
        const res = await ctx.req(nd(text));
        if (res.status !== 201) return res;
        res.final = (await ctx.waitImport(ctx.keys.f1rw, res.json.data.id)).status;
        // The server and worker share the process: a polluted prototype shows up in its JSON answers.
        const probe = await ctx.req({ path: '/api/v1/family_settings', key: ctx.keys.f1read });
        res.problem = res.final !== 'complete' ? `ended ${res.final}` : /isAdmin|"x":1/.test(probe.text) ? 'prototype polluted' : null;
        return res;
      },
      expect: { status: 201 },
      check: (res) => res.problem,
    },
    {
      id: 'D46b',
      title: 'accountable_type named like an inherited property (constructor, toString) -> preflight errors',
      req: () => nd(['constructor', 'toString'].map((type, i) => line('Account', { id: `p${i}`, name: `Inherited ${type} ${uniq()}`, balance: '0', currency: 'USD', accountable_type: type, accountable: { subtype: 'checking' } })).join('\n')),
      expect: preflight,
      check: errorsMatch(/invalid accountable_type "constructor"/),
    },
    {
      id: 'D47a',
      title: 'amount 1e400, null and unbalanced splits -> preflight errors',
      req: () => nd([account(), '{"type":"Transaction","data":{"id":"inf","account_id":"a1","date":"2025-01-01","amount":1e400}}', line('Transaction', { id: 'nul', account_id: 'a1', date: '2025-01-01', amount: null }), line('Transaction', { id: 's', account_id: 'a1', date: '2025-01-01', amount: '100', split_lines: [{ amount: '40' }, { amount: '50' }] })].join('\n')),
      expect: preflight,
      check: errorsMatch(/split line amounts must sum/),
    },
    { id: 'D47b', title: 'amounts "100", 100, "-0", "0.1" read exactly', run: async () => { const text = [line('Account', { id: 'a1', name: `Amounts ${uniq()}`, balance: '0', currency: 'USD', accountable_type: 'Depository' }), ...[['s', '100'], ['n', 100], ['z', '-0'], ['tenth', '0.1']].map(([id, amount]) => line('Transaction', { id, account_id: 'a1', date: '2025-01-01', amount, name: `amt-${id}-${ctx.run}` }))].join('\n'); const res = await ctx.req(nd(text)); if (res.status === 201) res.final = (await ctx.waitImport(ctx.keys.f1rw, res.json.data.id)); return res; }, expect: { status: 201 }, check: async (res) => { if (res.final?.status !== 'complete') return `ended ${res.final?.status}: ${res.final?.error}`; const rows = await ctx.q(`SELECT name, amount_minor::text AS a FROM entries WHERE import_id = $1 AND name LIKE 'amt-%' ORDER BY name`, [res.final.id]); const got = rows.map((r) => `${r.name.split('-')[1]}=${r.a}`).join(); return got === 'n=10000,s=10000,tenth=10,z=0' ? null : `amounts ${got}`; } },
    { id: 'D47c', title: 'amount as an object / array / boolean', req: () => nd([account(), line('Transaction', { id: 'o', account_id: 'a1', date: '2025-01-01', amount: { $gt: 0 } }), line('Transaction', { id: 'r', account_id: 'a1', date: '2025-01-01', amount: ['1'] }), line('Transaction', { id: 'b', account_id: 'a1', date: '2025-01-01', amount: true })].join('\n')), expect: preflight },
    {
      id: 'D48',
      title: '100,001 records -> 422 max_row_count_exceeded with import_id, import stays pending',
      req: () => nd(Array.from({ length: 100_001 }, (_, i) => `{"type":"Tag","data":{"id":"${i}","name":"${i}"}}`).join('\n')),
      expect: { status: 422, error: 'max_row_count_exceeded' },
      check: (res) => (res.json?.import_id ? null : 'no import_id'),
    },
    {
      id: 'D49',
      title: 'same NDJSON restored twice: second blocked by the collision preflight, family unchanged',
      run: async () => {
        const text = [line('Category', { id: 'c1', name: `Twice ${uniq()}` }), line('Tag', { id: 't1', name: `Twice tag ${uniq()}` })].join('\n');
        const first = await ctx.req(nd(text));
        if (first.status !== 201) return first;
        await ctx.waitImport(ctx.keys.f1rw, first.json.data.id);
        return ctx.req(nd(text));
      },
      expect: preflight,
      check: errorsMatch(/already exists in this family/),
    },
  ];
};
