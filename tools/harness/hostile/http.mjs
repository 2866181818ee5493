/* global URLSearchParams, AbortSignal, Headers */
// HTTP through fetch, recording every response of the current case (for the leak scan) and giving each case its
// own client address (X-Forwarded-For, believed from loopback only: the server runs with TRUST_PROXY=loopback), so
// the per-IP rate limits never couple one case to another. Rate-limit cases pin their own address instead.

let ipCounter = 0;
/** A fresh client address per call: 10.<a>.<b>.<c>. */
export function nextIp() {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export function cookiesOf(setCookies) {
  return setCookies.map((c) => c.split(';')[0]).join('; ');
}

export class Http {
  constructor(baseUrl) {
    this.baseUrl = baseUrl;
    /** Responses of the running case: { method, path, status, text } */
    this.recorded = [];
    /** Request texts of the running case (to tell echoed input from leaked data). */
    this.sent = [];
    this.ip = nextIp();
  }

  startCase() {
    this.recorded = [];
    this.sent = [];
    this.ip = nextIp();
  }

  /**
   * request({ method, path, headers, json, form, body, key, session, csrf, ip, timeoutMs })
   * key: X-Api-Key; session: { cookie, csrf } from signIn; csrf: false to leave the token out.
   */
  async request({ method = 'GET', path, url, headers = {}, json, form, body, key, session, csrf = true, ip, timeoutMs = 60_000 }) {
    const h = { 'x-forwarded-for': ip ?? this.ip, ...headers };
    if (key !== undefined) h['x-api-key'] = key;
    if (session) {
      h.cookie = [session.cookie, h.cookie].filter(Boolean).join('; ');
      if (csrf && session.csrf) h['x-csrf-token'] = session.csrf;
    }
    let payload = body;
    if (json !== undefined) {
      payload = JSON.stringify(json);
      h['content-type'] ??= 'application/json';
    } else if (form !== undefined) {
      payload = new URLSearchParams(form).toString();
      h['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    const target = url ?? `${this.baseUrl}${path}`;
    this.sent.push(`${method} ${target} ${typeof payload === 'string' ? payload.slice(0, 200_000) : ''} ${Object.values(h).join(' ')}`);
    const started = Date.now();
    let res;
    try {
      try {
        res = await fetch(target, { method, headers: h, body: payload, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        // A pooled keep-alive connection the server closed just as we reused it: nothing reached the app; once more.
        if (error.cause?.code !== 'UND_ERR_SOCKET' || Date.now() - started > 2_000) throw error;
        res = await fetch(target, { method, headers: h, body: payload, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      }
    } catch (error) {
      const result = { status: 0, error: `transport: ${error.cause?.code ?? error.name}: ${error.message}`, headers: new Headers(), text: '', json: null, setCookies: [], ms: Date.now() - started };
      this.recorded.push({ method, path: path ?? target, status: 0, text: '' });
      return result;
    }
    const text = await res.text();
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    const result = { status: res.status, headers: res.headers, text, json: parsed, setCookies: res.headers.getSetCookie(), location: res.headers.get('location'), ms: Date.now() - started };
    this.recorded.push({ method, path: path ?? target, status: res.status, text: text.slice(0, 2_000_000) + ' ' + [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n') });
    return result;
  }

  /** Signs in with e-mail and password: { cookie, csrf, token, setCookies } */
  async signIn(email, password, extra = {}) {
    const res = await this.request({ method: 'POST', path: '/sessions', json: { email, password }, ...extra });
    if (res.status !== 201) throw new Error(`sign-in of ${email} failed: ${res.status} ${res.error ?? ''} ${res.text.slice(0, 300)}`);
    const cookie = cookiesOf(res.setCookies);
    const token = /hearth_session=([^;]+)/.exec(cookie)?.[1];
    return { cookie, csrf: res.json.user.csrf_token, token, setCookies: res.setCookies, user: res.json.user };
  }
}
