/* global FormData, Blob, Headers */
// C. CSV content (POST /api/v1/imports, TransactionImport unless noted).
const TEN_MB = 10 * 1024 * 1024;

export default (ctx) => {
  const post = (csv, extra = {}) => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, json: { raw_file_content: csv, account_id: ctx.f1Account, ...extra } });
  const file = (bytes, { filename = 'x.csv', type = 'text/csv', fields = {} } = {}) => {
    const form = new FormData();
    form.set('account_id', ctx.f1Account);
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set('file', new Blob([bytes], { type }), filename);
    return { method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, body: form };
  };
  const rowsOf = async (id) => (await ctx.req({ path: `/api/v1/imports/${id}/rows?per_page=100`, key: ctx.keys.f1read })).json?.data ?? [];
  const stats = (expected) => (res) => {
    const s = res.json?.data?.stats;
    return Object.entries(expected).every(([k, v]) => s?.[k] === v) ? null : `stats ${JSON.stringify(s)}, expected ${JSON.stringify(expected)}`;
  };
  const names = (expected) => async (res) => {
    const got = (await rowsOf(res.json.data.id)).map((r) => r.fields.name);
    return JSON.stringify(got) === JSON.stringify(expected) ? null : `names ${JSON.stringify(got)}`;
  };
  const dates = [
    ['C29a', '2024-02-30', {}],
    ['C29b', '13/01/2024', { date_format: '%m/%d/%Y' }],
    ['C29c', '24/1/1', { date_format: '%d/%m/%y' }],
    ['C29f', '', {}],
    ['C29g', '2024-1-1; DROP TABLE entries', {}],
  ];
  // [cell, the amount GET /rows shows (signs flipped: positive CSV amounts are outflows) or null for a row error]
  const numbers = [['1.234,56', null], ['50-', '50'], ['1e309', null], ['NaN', null], ['0x10', null], ['１２３', null], ['1\u00a0234.56', null], ['99999999999999999999.99', null], ['Infinity', null], ['-', null], ['1,2,3', null], ['9223372036854775808', null], ['12,50', null], ['\u221212.50', '12.50'], ['100.00 DR', null]];
  return [
    { id: 'C22', title: 'unclosed quote mid-file -> 422 invalid_csv naming the row', req: () => post('date,amount,name\n2024-01-01,1,"Coffee\n2024-01-02,2,Tea'), expect: { status: 422, error: 'invalid_csv' } },
    { id: 'C22b', title: 'stray quotes inside a quoted field are read literally', req: () => post('date,amount,name\n2024-01-01,1,"Bob "Best" Diner"'), expect: { status: 201 }, check: names(['Bob "Best" Diner']) },
    { id: 'C22c', title: 'a stray quote that runs over a line break -> 422 invalid_csv', req: () => post('date,amount,name\n2024-01-01,1,"Bob "Best\n2024-01-02,2,"Tea"'), expect: { status: 422, error: 'invalid_csv' } },
    { id: 'C23a', title: 'UTF-8 BOM before the header', req: () => file(Buffer.from('\uFEFFdate,amount,name\n2024-01-01,1,Café')), expect: { status: 201 }, check: names(['Café']) },
    { id: 'C23b', title: 'UTF-16LE with BOM', req: () => file(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('date,amount,name\n2024-01-01,1,Café', 'utf16le')])), expect: { status: 201 }, check: names(['Café']) },
    { id: 'C23c', title: 'Windows-1252 é (0xE9)', req: () => file(Buffer.from([...Buffer.from('date,amount,name\n2024-01-01,1,Caf'), 0xe9])), expect: { status: 201 }, check: names(['Café']) },
    { id: 'C23d', title: 'UTF-16BE with BOM', req: () => file(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('date,amount,name\n2024-01-01,1,Cafe', 'utf16le').swap16()])), expect: { status: [201, 422] } },
    { id: 'C24a', title: 'mixed CRLF, LF line endings and a quoted newline', req: () => post('date,amount,name\r\n2024-01-01,1,a\n2024-01-02,2,"two\nlines"\r\n2024-01-03,3,c\n\n'), expect: { status: 201 }, check: stats({ rows_count: 3 }) },
    { id: 'C24b', title: 'lone CR line endings', req: () => post('date,amount,name\r2024-01-01,1,a\r2024-01-02,2,b'), expect: { status: [201, 422] }, check: (res) => (res.status === 201 ? stats({ rows_count: 2 })(res) : null) },
    { id: 'C25a', title: 'semicolon file read with commas', req: () => post('date;amount;name\n2024-01-01;1;a'), expect: { status: 422, error: 'invalid_csv' } },
    { id: 'C25b', title: 'col_sep "|" (not allowed)', req: () => post('date|amount\n2024-01-01|1', { col_sep: '|' }), expect: { status: 422, error: 'validation_failed' } },
    { id: 'C25c', title: 'col_sep semicolon with a semicolon file', req: () => post('date;amount;name\n2024-01-01;1;a', { col_sep: 'semicolon' }), expect: { status: 201 } },
    {
      id: 'C26a',
      title: 'exactly 10 MB inline -> 201',
      req: () => {
        const head = 'date,amount,name,notes\n2024-01-01,1,big,';
        return post(head + 'x'.repeat(TEN_MB - head.length));
      },
      expect: { status: 201 },
    },
    {
      id: 'C26b',
      title: '10 MB + 1 byte inline -> 422 content_too_large',
      req: () => {
        const head = 'date,amount,name,notes\n2024-01-01,1,big,';
        return post(head + 'x'.repeat(TEN_MB - head.length + 1));
      },
      expect: { status: 422, error: 'content_too_large' },
    },
    { id: 'C26c', title: '10 MB + 1 byte as a file -> 422 file_too_large', req: () => file(Buffer.alloc(TEN_MB + 1, 0x61)), expect: { status: 422, error: 'file_too_large' } },
    { id: 'C26d', title: '40 MB JSON body -> 413 while streaming', req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, headers: { 'content-type': 'application/json' }, body: `{"raw_file_content":"${'a'.repeat(40 * 1024 * 1024)}"}` }), expect: { status: [413, 422] } },
    { id: 'C27a', title: '~1,000,000 tiny rows inside 10 MB -> refused early (too_many_rows)', req: () => post('d,a\n' + '2024-01-01,1\n'.repeat(800_000), { date_col_label: 'd', amount_col_label: 'a' }), expect: { status: 422, error: 'too_many_rows' } },
    {
      id: 'C27b',
      title: 'rows over IMPORT_MAX_ROWS stored, publish -> 422 max_row_count_exceeded with import_id',
      req: () => post('date,amount\n' + '2024-01-01,1\n'.repeat(501), { publish: 'true' }),
      expect: { status: 422, error: 'max_row_count_exceeded' },
      check: (res) => (res.json?.import_id ? null : 'no import_id'),
    },
    {
      id: 'C28',
      title: 'formula payloads stored and returned verbatim',
      run: async () => {
        const payloads = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", '@SUM(1)', '-2+3', '\tTAB', '\rCR'];
        const csv = 'date,amount,name\n' + payloads.map((n, i) => `2024-06-0${i + 1},1,"${n.replace(/"/g, '""')}"`).join('\n');
        const res = await ctx.req(post(csv));
        if (res.status === 201) {
          const got = (await rowsOf(res.json.data.id)).map((r) => r.fields.name);
          res.problem = payloads.every((p, i) => got[i] === p || got[i] === p.trim()) ? null : `stored ${JSON.stringify(got)}`;
        }
        return res;
      },
      expect: { status: 201 },
      check: (res) => res.problem,
    },
    ...dates.map(([id, value, extra]) => ({
      id,
      title: `date ${JSON.stringify(value)} ${extra.date_format ?? ''} -> row error, valid row kept, publish refused`,
      req: () => post(`date,amount\n${value.includes(',') ? `"${value}"` : value},1\n${extra.date_format === '%m/%d/%Y' ? '01/02/2024' : extra.date_format === '%d/%m/%y' ? '02/01/24' : '2024-01-02'},2`, { ...extra, publish: 'true' }),
      expect: { status: 422, error: 'not_publishable' },
      check: async (res) => {
        const rows = await rowsOf(res.json.import_id);
        return rows.map((r) => r.valid).join() === 'false,true' ? null : `rows ${JSON.stringify(rows.map((r) => [r.valid, r.errors]))}`;
      },
    })),
    { id: 'C29d', title: 'a date 31 years ago is accepted or a row error', req: () => post('date,amount\n1993-01-01,1'), expect: { status: 201 } },
    { id: 'C29e', title: 'tomorrow is accepted or a row error', req: () => post(`date,amount\n${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)},1`), expect: { status: 201 } },
    ...numbers.map(([value, shown], i) => ({
      id: `C30${String.fromCharCode(97 + i)}`,
      title: `amount ${JSON.stringify(value)} under 1,234.56 -> ${shown === null ? 'row error' : `the amount ${shown}`}, never a DB overflow`,
      req: () => post(`date,amount\n2024-01-01,"${value}"`),
      expect: { status: 201 },
      check: async (res) => {
        const [row] = await rowsOf(res.json.data.id);
        if (shown === null) return row && !row.valid ? null : `accepted as ${row?.fields?.amount}`;
        return row?.valid && row.fields.amount === shown ? null : `row ${JSON.stringify(row)}`;
      },
    })),
    { id: 'C30m', title: '"(50.00)" reads as -50.00', req: () => post('date,amount\n2024-01-01,(50.00)'), expect: { status: 201 }, check: stats({ valid_rows_count: 1 }) },
    { id: 'C30n', title: '1.234,56 under number_format 1.234,56', req: () => post('date;amount\n2024-01-01;"1.234,56"', { col_sep: 'semicolon', number_format: '1.234,56' }), expect: { status: 201 }, check: stats({ valid_rows_count: 1 }) },
    { id: 'C30o', title: '1 234,56 under number_format "1 234,56"', req: () => post('date;amount\n2024-01-01;1 234,56', { col_sep: 'semicolon', number_format: '1 234,56' }), expect: { status: 201 }, check: stats({ valid_rows_count: 1 }) },
    { id: 'C30p', title: '12.50 under number_format 1,234 (no decimals)', req: () => post('date,amount\n2024-01-01,12.50', { number_format: '1,234' }), expect: { status: [201] } },
    { id: 'C30q', title: 'unknown number_format', req: () => post('date,amount\n2024-01-01,1', { number_format: '1_234.56' }), expect: { status: 422, error: 'validation_failed' } },
    {
      id: 'C31',
      title: 'emoji, RTL override, combining accents, NFC vs NFD, ZWJ stored losslessly',
      run: async () => {
        const values = ['emoji 🏠', '\u202Eevil', 'Cafe\u0301', 'Café', 'zwj 👩\u200D💻'];
        const res = await ctx.req(post('date,amount,name\n' + values.map((v, i) => `2024-07-0${i + 1},1,${v}`).join('\n')));
        if (res.status === 201) {
          const got = (await rowsOf(res.json.data.id)).map((r) => r.fields.name);
          res.problem = JSON.stringify(got) === JSON.stringify(values) ? null : `stored ${JSON.stringify(got)}`;
        }
        return res;
      },
      expect: { status: 201 },
      check: (res) => res.problem,
    },
    { id: 'C32a', title: 'NUL byte inside a field', req: () => post('date,amount,name\n2024-01-01,1,a\u0000b'), expect: { status: 422, error: 'invalid_encoding' } },
    { id: 'C32b', title: 'invalid UTF-8 (C3 28) in a file', req: () => file(Buffer.from([...Buffer.from('date,amount,name\n2024-01-01,1,'), 0xc3, 0x28])), expect: { status: [201, 422] } },
    { id: 'C32c', title: 'unpaired surrogate in JSON', req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, headers: { 'content-type': 'application/json' }, body: `{"raw_file_content":"date,amount,name\\n2024-01-01,1,\\ud800","account_id":"${ctx.f1Account}"}` }), expect: { status: 422, error: 'invalid_encoding' } },
    { id: 'C32d', title: 'NUL byte in a column label', req: () => post('date,amount\n2024-01-01,1', { date_col_label: 'date\u0000' }), expect: { status: 422, error: 'invalid_encoding' } },
    { id: 'C33', title: 'headers Date, date , DATE* normalise to one column', req: () => post('Date,amount,DATE*\n2024-01-01,1,2024-01-02'), expect: { status: 422, error: 'invalid_csv' } },
    {
      id: 'C34',
      title: '__proto__ and constructor headers are plain columns, no pollution',
      req: () => post('date,amount,__proto__,constructor,name\n2024-01-01,1,"{""polluted"":1}",x,a\n2024-01-02,2,,,b'),
      expect: { status: 201 },
      check: async (res) => {
        const rows = await rowsOf(res.json.data.id);
        return rows.length === 2 && rows.every((r) => r.valid) && !JSON.stringify(rows[1]).includes('polluted') ? null : `rows ${JSON.stringify(rows).slice(0, 300)}`;
      },
    },
    { id: 'C35', title: 'rows_to_skip', notRun: 'not applicable: Hearth has no rows_to_skip parameter (the create request takes no such field); an unknown field is dropped by the whitelisting DTO' },
    { id: 'C35b', title: 'rows_to_skip=-1 is ignored as an unknown field', req: () => post('date,amount\n2024-01-01,1', { rows_to_skip: -1 }), expect: { status: 201 } },
    { id: 'C36a', title: 'empty content', req: () => post(''), expect: { status: 422, error: 'missing_content' } },
    { id: 'C36b', title: 'header only', req: () => post('date,amount\n'), expect: { status: 422, error: 'invalid_csv' } },
    { id: 'C36c', title: 'a single ~10 MB cell', req: () => post('date,amount,name\n2024-01-01,1,' + 'y'.repeat(TEN_MB - 40)), expect: { status: [201, 422] } },
    { id: 'C36d', title: '20,000 columns', req: () => { const wide = Array.from({ length: 20_000 }, (_, i) => `c${i}`).join(','); return post(`${wide}\n${wide}`); }, expect: { status: 422, error: 'invalid_csv' } },
    { id: 'C36e', title: 'raw_file_content as a number', req: () => post(12345), expect: { status: 422, error: 'validation_failed' } },
    { id: 'C36f', title: 'raw_file_content as an object', req: () => post({ $gt: '' }), expect: { status: 422, error: 'validation_failed' } },
    { id: 'C36g', title: 'raw_file_content as an array', req: () => post(['date,amount', '2024-01-01,1']), expect: { status: 422, error: 'validation_failed' } },
    ...['Kernel', '../../x', 'T'.repeat(10_000), 'transactionimport', '__proto__'].map((type, i) => ({
      id: `C37${String.fromCharCode(97 + i)}`,
      title: `type ${JSON.stringify(type.slice(0, 20))}${type.length > 20 ? '...' : ''} -> 422 invalid_import_type`,
      req: () => post('date,amount\n2024-01-01,1', { type }),
      expect: { status: 422, error: 'invalid_import_type' },
      check: (res) => (res.json?.message?.length < 400 ? null : 'message echoes the whole input'),
    })),
    { id: 'C37f', title: 'publish as JSON boolean true queues it', req: () => post('date,amount,name\n2024-01-01,7.77,bool', { publish: true }), expect: { status: 201 }, check: (res) => (res.json?.data?.status === 'importing' ? null : `status ${res.json?.data?.status}`) },
    { id: 'C37g', title: 'publish as an object', req: () => post('date,amount\n2024-01-01,1', { publish: { $ne: false } }), expect: { status: 422, error: 'validation_failed' } },
    {
      id: 'C38',
      title: 'same CSV uploaded and published twice: no duplicates of matched rows',
      run: async () => {
        const csv = `date,amount,name\n2024-08-01,3.33,Dup ${ctx.run}\n2024-08-02,4.44,Dup2 ${ctx.run}`;
        for (let i = 0; i < 2; i += 1) {
          const res = await ctx.req(post(csv, { publish: 'true' }));
          if (res.status !== 201) return res;
          await ctx.waitImport(ctx.keys.f1rw, res.json.data.id);
        }
        const [{ n }] = await ctx.q(`SELECT count(*)::int AS n FROM entries WHERE family_id = $1 AND name LIKE $2`, [ctx.f1, `Dup% ${ctx.run}`]);
        return { status: n, json: null, headers: new Headers(), text: '' };
      },
      expect: { status: 2 },
    },
  ];
};
