import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { hash, verify } from 'argon2';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import { ApiError } from '../common/api-error';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Transactions } from '../database/transactions';
import type { User } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { normalizeEmail } from '../users/users.service';
import { localLoginAllowedFor, localLoginMode } from './local-login-policy';
import type { SessionPrincipal } from './principal';
import { PasswordResetsRepository } from './password-resets.repository';
import { idleCutoff, LAST_USE_RESOLUTION_MS, lastUseOutdated, sessionEndable, sessionUsable } from './session-lifetime';
import { accountKey, csrfTokenFor, generateToken, hashToken, isWellFormedToken } from './session-token';
import { SessionsRepository } from './sessions.repository';

export const INVALID_CREDENTIALS = () => new ApiError(401, 'invalid_credentials', 'Invalid email or password.');
export const LOCAL_LOGIN_DISABLED = () =>
  new ApiError(403, 'local_login_disabled', 'Local password login is disabled. Please use single sign-on.');
const NO_SESSION = 'Session is missing, expired or revoked. Sign in again.';
const PASSWORD_SESSION_ENDED = 'Password sign-in is turned off for your account. Sign in with single sign-on.';

export interface SignedIn {
  user: User;
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

/** Local e-mail/password sign-in and the server-side sessions behind the session cookie. */
/** Who a password attempt is for, as the audit log records a refusal: the user (null when unknown) and the way in. */
export interface PasswordAttempter {
  user: User | null;
  origin: RequestOrigin;
  providerId?: string;
  providerName: string;
}

@Injectable()
export class SessionsService implements OnModuleInit {
  /** Verified when the e-mail is unknown, so both paths cost one argon2id verification. */
  private dummyHash: Promise<string> | null = null;
  /** The password check in progress or queued last, per account key (see passwordAttempt). */
  private readonly attempts = new Map<string, Promise<void>>();

  constructor(
    private readonly transactions: Transactions,
    private readonly users: UsersRepository,
    private readonly resetLinks: PasswordResetsRepository,
    private readonly sessions: SessionsRepository,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    void this.getDummyHash();
  }

  csrfToken(sessionToken: string): string {
    return csrfTokenFor(sessionToken, this.config.secretKeyBase);
  }

  /**
   * Checks the password and opens a session. Every refusal for a form-visible configuration (unknown e-mail, wrong
   * password, no password, suspended, not a super admin under the override) is the same 401 after the same work.
   */
  async signIn(rawEmail: string, password: string, origin: RequestOrigin, previousToken?: string): Promise<SignedIn> {
    const email = normalizeEmail(rawEmail);
    const mode = localLoginMode(this.config.auth);
    if (mode === 'disabled') {
      await this.audit.record('login_failed', { providerName: 'local', origin, details: { reason: 'local_login_disabled' } });
      throw LOCAL_LOGIN_DISABLED();
    }
    const account = accountKey(email, this.config.secretKeyBase);
    const user = await this.users.findByEmail(email);
    const reason = await this.passwordAttempt(account, { user, origin, providerName: 'local' }, async () => {
      const matches = await verify(user?.passwordHash ?? (await this.getDummyHash()), password).catch(() => false);
      const refusal = !user
        ? 'unknown_account'
        : !user.passwordHash
          ? 'no_password'
          : !matches
            ? 'invalid_password'
            : user.status !== 'active'
              ? 'suspended'
              : !localLoginAllowedFor(this.config.auth, user.role)
                ? 'local_login_restricted'
                : null;
      if (refusal !== null) {
        await this.audit.record('login_failed', {
          userId: user?.id,
          familyId: user?.familyId,
          providerName: 'local',
          origin,
          details: { reason: refusal, account },
        });
      }
      return refusal;
    });
    if (reason !== null || !user) throw INVALID_CREDENTIALS();

    if (previousToken) await this.endPresentedSession(previousToken);
    const override = mode === 'super_admins_only';
    const signedIn = await this.openSession(user, origin, { method: 'password', ...(override ? { admin_override: true } : {}) });
    if (override) this.logger.warn({ userId: user.id }, 'Super admin signed in with a password under the local-login override');
    return signedIn;
  }

  /** Creates a session for an authenticated user (password, first-run setup and every SSO strategy), audited as `login`. */
  async openSession(user: User, origin: RequestOrigin, details: Record<string, unknown>, providerName = 'local'): Promise<SignedIn> {
    const token = generateToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.config.auth.sessionTtlHours * 3_600_000);
    await this.transactions.run(async (tx) => {
      await this.sessions.insert(
        { userId: user.id, tokenHash: hashToken(token), expiresAt, lastSeenAt: now, ipAddress: origin.ip, userAgent: origin.userAgent },
        tx,
      );
      await this.users.recordLogin(user.id, now, tx);
      await this.audit.record('login', { userId: user.id, familyId: user.familyId, providerName, origin, details }, tx);
    });
    user.lastLoginAt = now;
    return { user, token, csrfToken: this.csrfToken(token), expiresAt };
  }

  /**
   * Resolves the session cookie to its principal or throws 401 (missing, revoked, expired or idle past
   * SESSION_IDLE_MINUTES); a suspended user's session is ended on the spot. Only about one request a minute per
   * session writes its last use; the others only read. `toSignOut` also takes a session idle past the limit (only
   * to end it: see sessionEndable).
   */
  async authenticate(token: string | undefined, now = new Date(), toSignOut = false): Promise<SessionPrincipal> {
    if (!isWellFormedToken(token)) throw new ApiError(401, 'unauthorized', NO_SESSION);
    const session = await this.sessions.findByTokenHash(hashToken(token));
    const idleMinutes = this.config.auth.sessionIdleMinutes;
    // Idle too long is expired: same answer, and the session is never touched again, so it stays ended.
    const accepted = session && (toSignOut ? sessionEndable(session, now) : sessionUsable(session, now, idleMinutes));
    if (!accepted) throw new ApiError(401, 'unauthorized', NO_SESSION);
    if (session.status !== 'active') {
      await this.sessions.revoke(session.id, now);
      throw new ApiError(401, 'unauthorized', 'Account has been deactivated');
    }
    // A password session lasts only while a password sign-in would be allowed now: not after local login
    // was turned off, nor once its super admin is demoted under the override. Signing out still works.
    if (!toSignOut && session.ssoProviderId === null && !localLoginAllowedFor(this.config.auth, session.role)) {
      await this.sessions.revoke(session.id, now);
      throw new ApiError(401, 'unauthorized', PASSWORD_SESSION_ENDED);
    }
    if (lastUseOutdated(session.lastSeenAt, now)) {
      await this.sessions.touch(session.id, now, new Date(now.getTime() - LAST_USE_RESOLUTION_MS), idleCutoff(now, idleMinutes));
    }
    return { userId: session.userId, familyId: session.familyId, role: session.role, email: session.email, sessionId: session.id, token };
  }

  async signOut(principal: SessionPrincipal, origin: RequestOrigin): Promise<void> {
    await this.sessions.revoke(principal.sessionId, new Date());
    await this.audit.record('logout', { userId: principal.userId, familyId: principal.familyId, origin });
  }

  /** Changes the caller's own password; the current one is required (throttled like sign-in), other sessions end. */
  async changePassword(principal: SessionPrincipal, currentPassword: string, newPassword: string, origin: RequestOrigin): Promise<void> {
    const user = await this.users.findByIdOrFail(principal.userId);
    if (!localLoginAllowedFor(this.config.auth, user.role)) throw LOCAL_LOGIN_DISABLED();
    if (!user.passwordHash) {
      throw new ApiError(422, 'password_not_set', 'Your account signs in through single sign-on and has no password to change.');
    }
    // The same per-account budget as sign-in: a stolen session must not guess the current password from many IPs.
    const account = accountKey(user.email, this.config.secretKeyBase);
    const currentHash = user.passwordHash;
    const matches = await this.passwordAttempt(account, { user, origin, providerName: 'local' }, async () => {
      const ok = await verify(currentHash, currentPassword).catch(() => false);
      if (!ok) {
        await this.audit.record('login_failed', {
          userId: user.id,
          familyId: user.familyId,
          providerName: 'local',
          origin,
          details: { reason: 'invalid_current_password', account },
        });
      }
      return ok;
    });
    if (!matches) throw new ApiError(422, 'invalid_current_password', 'The current password is not correct.');
    const passwordHash = await hash(newPassword);
    await this.transactions.run(async (tx) => {
      await this.users.setPasswordHash(user.id, passwordHash, tx);
      await this.sessions.revokeAllForUser(user.id, new Date(), tx, principal.sessionId);
      await this.resetLinks.spendAllOf(user.id, tx);
      await this.audit.record('password_changed', { userId: user.id, familyId: user.familyId, origin }, tx);
    });
  }

  /**
   * Runs one check of an account's password (sign-in, password change, linking an SSO identity to the account): 429
   * past the account's failure budget, before any password is checked, and one at a time per account in this
   * process, so each counts the failures recorded by those before it and guesses sent all at once cannot all pass
   * the count. (With several instances, at most one attempt per instance can overlap.)
   */
  async passwordAttempt<T>(account: string, who: PasswordAttempter, attempt: () => Promise<T>): Promise<T> {
    const run = (this.attempts.get(account) ?? Promise.resolve()).then(async () => {
      await this.refuseWhenAccountThrottled(account, who);
      return attempt();
    });
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.attempts.set(account, settled);
    try {
      return await run;
    } finally {
      if (this.attempts.get(account) === settled) this.attempts.delete(account);
    }
  }

  /** Too many recent failures for this e-mail: 429 before any password is checked (known or unknown alike). */
  private async refuseWhenAccountThrottled(account: string, { user, origin, providerId, providerName }: PasswordAttempter): Promise<void> {
    const { loginMaxFailuresPerAccount: max, loginFailureWindowMinutes } = this.config.auth;
    const windowMs = loginFailureWindowMinutes * 60_000;
    const now = Date.now();
    const failures = await this.audit.failuresSince(account, new Date(now - windowMs));
    if (failures.length < max) return;
    const retryAfter = Math.max(1, Math.ceil((failures[failures.length - max].getTime() + windowMs - now) / 1000));
    // Recorded without the account key, so refused attempts do not extend the lock.
    await this.audit.record('login_failed', {
      userId: user?.id,
      familyId: user?.familyId,
      providerId,
      providerName,
      origin,
      details: { reason: 'account_rate_limited' },
    });
    throw new ApiError(
      429,
      'rate_limit_exceeded',
      `Too many failed sign-in attempts for this account. Try again in ${retryAfter} seconds.`,
      {},
      { 'Retry-After': String(retryAfter) },
    );
  }

  /** Signing in again never reuses the session presented with the request (no session fixation). */
  private async endPresentedSession(token: string): Promise<void> {
    if (!isWellFormedToken(token)) return;
    const session = await this.sessions.findByTokenHash(hashToken(token));
    if (session && !session.revokedAt) await this.sessions.revoke(session.id, new Date());
  }

  private getDummyHash(): Promise<string> {
    this.dummyHash ??= hash(randomBytes(32).toString('hex'));
    return this.dummyHash;
  }
}
