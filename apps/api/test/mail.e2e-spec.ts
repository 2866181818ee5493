import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import request from 'supertest';
import { MAILER, SmtpMailer } from '../src/auth/mailer';
import { LOGGER } from '../src/common/logger';
import { PASSWORD, signIn } from './support/sessions';
import { startTestApp, TestApp } from './support/test-app';

const SMTP_USER = 'hearth-mailer';
const SMTP_PASSWORD = 'smtp-secret-7f3a';

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

/** The body of a received message, quoted-printable decoded (long lines such as the link are soft-wrapped). */
const bodyOf = (raw: string) =>
  raw
    .slice(raw.indexOf('\r\n\r\n') + 4)
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * A real SMTP server in this process, on a free loopback port: it takes the mailer's credentials only, refuses
 * recipients whose address starts with "bounce", and keeps every message it accepts.
 */
async function startSmtpServer(): Promise<{ server: SMTPServer; port: number; inbox: Received[] }> {
  const inbox: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('bounce')) callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom;
        inbox.push({ from: from ? from.address : undefined, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
  return { server, port, inbox };
}

async function until<T>(read: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('password reset mail over SMTP (SMTP_URL)', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({
      SMTP_URL: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'Hearth <hearth@example.com>',
      APP_URL: 'https://hearth.example.com',
      RATE_LIMIT_LOGIN_PER_MINUTE: '100000',
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => smtp?.server.close(resolve));
  });

  it('mails the link to the SMTP server, and the link sets a new password to sign in with', async () => {
    expect(t.app.get(MAILER)).toBeInstanceOf(SmtpMailer);
    const h = await t.newHousehold();
    await request(t.server).post('/api/v1/auth/password_reset').send({ email: h.email }).expect(202);

    const mail = await until(() => smtp.inbox.find((m) => m.to.includes(h.email)));
    expect(mail.from).toBe('hearth@example.com');
    expect(mail.raw).toMatch(/^Subject: Reset your Hearth password\r$/m);
    expect(mail.raw).toMatch(/^From: Hearth <hearth@example\.com>\r$/m);
    const link = /https:\/\/hearth\.example\.com\/password_reset\?token=[A-Za-z0-9_-]+/.exec(bodyOf(mail.raw))?.[0];
    expect(link).toBeDefined();

    // The link opens the admin app's reset page, which posts its token with the new password.
    const token = new URL(link!).searchParams.get('token');
    await request(t.server).post('/api/v1/auth/password_reset/complete').send({ token, password: 'a new long passphrase' }).expect(204);
    await request(t.server).post('/sessions').send({ email: h.email, password: PASSWORD }).expect(401);
    await signIn(t.server, h.email, 'a new long passphrase');
  });

  it('answers as for an unknown address when the server refuses the mail, and logs why without the link or the password', async () => {
    const h = await t.newHousehold();
    await t.dataSource.query(`UPDATE users SET email = 'bounce-' || email WHERE id = $1`, [h.userId]);
    const error = jest.spyOn(t.app.get(LOGGER), 'error');
    try {
      const unknown = await request(t.server).post('/api/v1/auth/password_reset').send({ email: 'nobody-at-all@example.com' }).expect(202);
      const refused = await request(t.server).post('/api/v1/auth/password_reset').send({ email: `bounce-${h.email}` }).expect(202);
      expect(refused.body).toEqual(unknown.body);

      const [fields, message] = await until(() => error.mock.calls.find(([logged]) => (logged as { userId?: string }).userId === h.userId));
      expect(message).toBe('password reset e-mail could not be sent');
      const { err } = fields as { err: Error & { code?: string; responseCode?: number } };
      expect({ code: err.code, responseCode: err.responseCode }).toEqual({ code: 'EENVELOPE', responseCode: 550 });
      const logged = JSON.stringify(fields, (_, value) => (value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value));
      expect(logged).not.toContain(SMTP_PASSWORD);
      expect(logged).not.toContain('token=');
      expect(smtp.inbox.some((m) => m.to.some((to) => to.startsWith('bounce')))).toBe(false);
    } finally {
      error.mockRestore();
    }
  });
});
