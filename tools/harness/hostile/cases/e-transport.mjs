// E. Multipart and transport.
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';

const CSV = Buffer.from('date,amount,name\n2024-01-01,1,multipart');

/** A hand-written multipart body: parts = [{ name, filename?, type?, data }]. */
function multipart(parts, boundary = 'hostile-boundary-42') {
  const chunks = [];
  for (const p of parts) {
    let disposition = `form-data; name="${p.name}"`;
    if (p.filename !== undefined) disposition += `; filename="${p.filename}"`;
    if (p.filenameStar !== undefined) disposition += `; filename*=${p.filenameStar}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`), Buffer.from(p.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

/** Raw HTTP over a socket, for bodies fetch will not send (truncated, aborted, slow). */
function raw(url, text, { endAfterMs = null } = {}) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    socket.on('data', (d) => (data += d));
    socket.on('error', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.write(text);
    if (endAfterMs !== null) setTimeout(() => socket.destroy(), endAfterMs);
  });
}

export default (ctx) => {
  const upload = (parts, extraHeaders = {}) => {
    const m = multipart(parts);
    return { method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, headers: { 'content-type': m.type, ...extraHeaders }, body: m.body };
  };
  const acct = () => ({ name: 'account_id', data: ctx.f1Account });
  const storedName = async (res) => (await ctx.q(`SELECT file_name FROM imports WHERE id = $1`, [res.json.data.id]))[0]?.file_name;
  const filenames = [
    ['E53a', '../../etc/passwd.csv'],
    ['E53b', '..\\..\\win.ini.csv'],
    ['E53c', '%2e%2e%2fx.csv'],
    ['E53d', '/tmp/x.csv'],
    ['E53e', 'a.csv\u0000.exe'],
    ['E53f', `${'n'.repeat(8 * 1024)}.csv`],
    ['E53g', '<script>alert(1)</script>.csv'],
  ];
  return [
    { id: 'E50a', title: 'file as application/pdf with CSV type', req: () => upload([acct(), { name: 'file', filename: 'x.pdf', type: 'application/pdf', data: '%PDF-1.4' }]), expect: { status: 422, error: 'invalid_file_type' } },
    { id: 'E50b', title: 'file as image/png', req: () => upload([acct(), { name: 'file', filename: 'x.png', type: 'image/png', data: 'abc' }]), expect: { status: 422, error: 'invalid_file_type' } },
    { id: 'E50c', title: 'text/csv whose bytes are a PNG', req: () => upload([acct(), { name: 'file', filename: 'x.csv', type: 'text/csv', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]) }]), expect: { status: 422, error: 'invalid_file_type' } },
    { id: 'E50d', title: 'PdfImport with a CSV body', req: () => upload([{ name: 'type', data: 'PdfImport' }, acct(), { name: 'file', filename: 'x.pdf', type: 'application/pdf', data: CSV }]), expect: { status: 422 } },
    { id: 'E51a', title: 'multipart with neither file nor raw_file_content (CSV)', req: () => upload([{ name: 'type', data: 'TransactionImport' }]), expect: { status: 422, error: 'missing_content' } },
    { id: 'E51b', title: 'multipart with neither file nor raw_file_content (NDJSON)', req: () => upload([{ name: 'type', data: 'ServiceImport' }]), expect: { status: 422, error: 'missing_content' } },
    {
      id: 'E51c',
      title: 'both file and raw_file_content -> the file wins',
      req: () => upload([acct(), { name: 'raw_file_content', data: 'date,amount,name\n2024-01-01,1,inline' }, { name: 'file', filename: 'x.csv', type: 'text/csv', data: CSV }]),
      expect: { status: 201 },
      check: async (res) => {
        const rows = (await ctx.req({ path: `/api/v1/imports/${res.json.data.id}/rows`, key: ctx.keys.f1read })).json?.data ?? [];
        return rows[0]?.fields?.name === 'multipart' ? null : `used ${rows[0]?.fields?.name}`;
      },
    },
    { id: 'E52a', title: 'two parts named file', req: () => upload([acct(), { name: 'file', filename: 'a.csv', type: 'text/csv', data: CSV }, { name: 'file', filename: 'b.csv', type: 'text/csv', data: CSV }]), expect: { status: 422, error: 'unexpected_file' } },
    { id: 'E52b', title: 'an unexpected extra file field', req: () => upload([acct(), { name: 'other', filename: 'a.csv', type: 'text/csv', data: CSV }]), expect: { status: 422, error: 'unexpected_file' } },
    { id: 'E52c', title: '1,000 text fields', req: () => upload([acct(), ...Array.from({ length: 1000 }, (_, i) => ({ name: `f${i}`, data: 'x' })), { name: 'file', filename: 'a.csv', type: 'text/csv', data: CSV }]), expect: { status: [201, 413, 422] } },
    ...filenames.map(([id, filename]) => ({
      id,
      title: `file name ${JSON.stringify(filename.slice(0, 40))} -> base name only, nothing outside the upload dir`,
      req: () => upload([acct(), { name: 'file', filename, type: 'text/csv', data: CSV }]),
      expect: { status: [201, 400, 422] },
      check: async (res) => {
        if (res.status !== 201) return null;
        const name = await storedName(res);
        return name && (/[/\\]/.test(name) || name.includes('\u0000')) ? `stored file name ${JSON.stringify(name)}` : name && name.length > 255 ? 'stored name not bounded' : null;
      },
    })),
    { id: 'E53h', title: "RFC 5987 filename*=UTF-8''..%2F..%2Fx", req: () => upload([acct(), { name: 'file', filename: 'ok.csv', filenameStar: "UTF-8''..%2F..%2Fx.csv", type: 'text/csv', data: CSV }]), expect: { status: [201, 422] }, check: async (res) => (res.status === 201 && /[/\\]/.test((await storedName(res)) ?? '') ? 'path in stored name' : null) },
    { id: 'E54a', title: 'garbled multipart (truncated part, no closing boundary) -> 400', req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, headers: { 'content-type': 'multipart/form-data; boundary=xyz' }, body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\ntruncated' }), expect: { status: 400, error: 'malformed_multipart' } },
    { id: 'E54b', title: 'multipart without a boundary parameter', req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, headers: { 'content-type': 'multipart/form-data' }, body: 'whatever' }), expect: { status: [400, 415, 422] } },
    { id: 'E54c', title: 'multipart with a boundary that never occurs', req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, headers: { 'content-type': 'multipart/form-data; boundary=nothere' }, body: 'just some bytes\r\n' }), expect: { status: [400, 422] } },
    {
      id: 'E54d',
      title: 'client aborts mid-part: the server stays up, no import row',
      run: async () => {
        const before = (await ctx.q(`SELECT count(*)::int AS n FROM imports WHERE family_id = $1`, [ctx.f1]))[0].n;
        const head = `POST /api/v1/imports HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${ctx.keys.f1rw}\r\nX-Forwarded-For: ${ctx.http.ip}\r\nContent-Type: multipart/form-data; boundary=abc\r\nContent-Length: 100000\r\n\r\n--abc\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\ndate,amount\n2024-01-01,1\n`;
        await raw(ctx.appUrl, head, { endAfterMs: 300 });
        await ctx.sleep(300);
        const after = (await ctx.q(`SELECT count(*)::int AS n FROM imports WHERE family_id = $1`, [ctx.f1]))[0].n;
        const alive = await ctx.req({ path: '/api/v1/health' });
        alive.problem = after !== before ? 'an import row was written' : null;
        return alive;
      },
      expect: { status: 200 },
      check: (res) => res.problem,
    },
    { id: 'E55a', title: 'Content-Encoding: gzip JSON body inflating to 50 MB -> refused', req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(Buffer.from(`{"raw_file_content":"${'a'.repeat(50 * 1024 * 1024)}"}`)) }), expect: { status: [413, 415, 422] } },
    { id: 'E55b', title: 'Content-Encoding: gzip on a small route', req: () => ({ method: 'PATCH', path: '/api/v1/family_settings', key: ctx.keys.f1rw, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(Buffer.from(JSON.stringify({ name: 'x'.repeat(4 * 1024 * 1024) }))) }), expect: { status: [413, 415] } },
    { id: 'E55c', title: 'Content-Encoding: br (unsupported)', req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, headers: { 'content-type': 'application/json', 'content-encoding': 'br' }, body: 'garbage' }), expect: { status: [415, 400] } },
    { id: 'E56a', title: 'JSON body of ~10 MB raw_file_content on /imports is accepted', req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, json: { raw_file_content: 'date,amount,name\n2024-01-01,1,' + 'z'.repeat(10 * 1024 * 1024 - 40), account_id: ctx.f1Account } }), expect: { status: 201 } },
    { id: 'E56b', title: '2 MB JSON body on another route -> 413', req: () => ({ method: 'PATCH', path: '/api/v1/family_settings', key: ctx.keys.f1rw, json: { name: 'x'.repeat(2 * 1024 * 1024) } }), expect: { status: 413, error: 'payload_too_large' } },
    { id: 'E56c', title: '2 MB form body on /sessions -> 413', req: () => ({ method: 'POST', path: '/sessions', form: { email: 'a@b.c', password: 'x'.repeat(2 * 1024 * 1024) } }), expect: { status: 413, error: 'payload_too_large' } },
    { id: 'E56d', title: 'malformed JSON body -> 400', req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, headers: { 'content-type': 'application/json' }, body: '{"raw_file_content": "a",' }), expect: { status: 400 } },
    { id: 'E56e', title: 'JSON body that is not an object (a string)', req: () => ({ method: 'PATCH', path: '/api/v1/family_settings', key: ctx.keys.f1rw, headers: { 'content-type': 'application/json' }, body: '"just a string"' }), expect: { status: [400, 422] } },
    { id: 'E56f', title: 'JSON body that is an array', req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, headers: { 'content-type': 'application/json' }, body: '[1,2,3]' }), expect: { status: [400, 422] } },
    { id: 'E56g', title: 'JSON with __proto__ at the top level', req: () => ({ method: 'PATCH', path: '/api/v1/family_settings', key: ctx.keys.f1rw, headers: { 'content-type': 'application/json' }, body: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}' }), expect: { status: [200, 400, 422] }, check: (res) => (/polluted/.test(res.text) ? 'pollution echoed' : null) },
    // Decided: the body parsers are global (JSON, and form for browsers' sign-in), so a form body is read like JSON
    // (cookie requests still need the CSRF token; API keys cannot be sent cross-site without a CORS preflight, and
    // the API sends no CORS headers); any other type is never parsed and answers 4xx.
    { id: 'E57a', title: 'text/plain JSON-looking body on /imports is not parsed -> 4xx', req: () => ({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1rw, headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ raw_file_content: 'date,amount\n2024-01-01,1' }) }), expect: { status: [415, 422], error: undefined }, check: (res) => (res.status === 422 && res.json?.error !== 'missing_content' ? `error ${res.json?.error}` : null) },
    { id: 'E57b', title: 'form-encoded body on a JSON route is read like JSON (decided) and validated', req: () => ({ method: 'PATCH', path: '/api/v1/family_settings', key: ctx.keys.f1rw, form: { month_start_day: '40' } }), expect: { status: [415, 422] } },
    { id: 'E57c', title: 'application/xml body is not parsed -> 4xx', req: () => ({ method: 'POST', path: '/api/v1/budgets', key: ctx.keys.f1rw, headers: { 'content-type': 'application/xml' }, body: '<start_date>2025-01-01</start_date>' }), expect: { status: [415, 422] } },
    {
      id: 'E58',
      title: 'slow upload and 200 idle keep-alive sockets: the server keeps answering others',
      run: async () => {
        const { hostname, port } = new URL(ctx.appUrl);
        const sockets = Array.from({ length: 200 }, () => connect(Number(port), hostname));
        const slow = connect(Number(port), hostname);
        slow.on('error', () => undefined);
        for (const s of sockets) s.on('error', () => undefined);
        slow.write(`POST /api/v1/imports HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${ctx.keys.f1rw}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
        await ctx.sleep(500);
        const res = await ctx.req({ path: '/api/v1/budgets', key: ctx.keys.f1read, timeoutMs: 10_000 });
        for (const s of [...sockets, slow]) s.destroy();
        return res;
      },
      expect: { status: 200 },
    },
  ];
};
