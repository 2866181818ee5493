import { Inject, Injectable } from '@nestjs/common';
import { hash } from 'argon2';
import type { Logger } from 'pino';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import { ApiError } from '../common/api-error';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Transactions } from '../database/transactions';
import { UsersRepository } from '../users/users.repository';
import { normalizeEmail } from '../users/users.service';
import { passwordResetEnabled } from './local-login-policy';
import { PasswordResetsRepository } from './password-resets.repository';
import { MAILER, Mailer } from './mailer';
import { generateToken, hashToken, isWellFormedToken } from './session-token';
import { SessionsRepository } from './sessions.repository';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/** Password reset by e-mailed link: one live token per user, valid one hour, single use, stored only as a hash. */
@Injectable()
export class PasswordResetsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly users: UsersRepository,
    private readonly resetLinks: PasswordResetsRepository,
    private readonly sessions: SessionsRepository,
    private readonly audit: AuditService,
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Always the same answer, so it tells nothing about which addresses have accounts. */
  async request(rawEmail: string, origin: RequestOrigin): Promise<void> {
    this.assertEnabled();
    const user = await this.users.findByEmail(normalizeEmail(rawEmail));
    if (!user || user.status !== 'active' || !user.passwordHash) return;
    const token = generateToken();
    const now = new Date();
    await this.transactions.run(async (tx) => {
      await this.resetLinks.spendAllOf(user.id, tx, now);
      await this.resetLinks.insert({ userId: user.id, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS) }, tx);
      await this.audit.record('password_reset_requested', { userId: user.id, familyId: user.familyId, origin }, tx);
    });
    const link = `${this.baseUrl()}/password_reset?token=${encodeURIComponent(token)}`;
    // Not awaited: a slow or failing transport must not make a known address answer later, or differently.
    void this.mailer
      .send({
        to: user.email,
        subject: 'Reset your Hearth password',
        text: `Someone asked to reset the password of your Hearth account.\n\nTo choose a new password, open this link within one hour:\n${link}\n\nIf it was not you, ignore this e-mail; your password stays as it is.`,
      })
      .catch((err: unknown) => this.logger.error({ err, userId: user.id }, 'password reset e-mail could not be sent'));
  }

  /** Sets the new password, spends the token and ends every session of the user, all or nothing. */
  async complete(token: string, password: string, origin: RequestOrigin): Promise<void> {
    this.assertEnabled();
    const invalid = () => new ApiError(422, 'invalid_token', 'This password reset link is invalid or has expired. Request a new one.');
    if (!isWellFormedToken(token)) throw invalid();
    const passwordHash = await hash(password);
    await this.transactions.run(async (tx) => {
      const userId = await this.resetLinks.spend(hashToken(token), tx);
      const user = userId ? await this.users.findById(userId, tx) : null;
      if (!user || user.status !== 'active') throw invalid();
      await this.users.setPasswordHash(user.id, passwordHash, tx);
      // Two requests made at once can each have left a link: the other must not set a password after this one.
      await this.resetLinks.spendAllOf(user.id, tx);
      await this.sessions.revokeAllForUser(user.id, new Date(), tx);
      await this.audit.record('password_reset', { userId: user.id, familyId: user.familyId, origin }, tx);
    });
  }

  private assertEnabled(): void {
    if (!passwordResetEnabled(this.config.auth)) {
      throw new ApiError(
        403,
        'password_reset_disabled',
        'Password reset is disabled. Please reset your password through your identity provider.',
      );
    }
  }

  /** APP_URL; without it, localhost: a link is never built from the request's Host header (link poisoning). */
  private baseUrl(): string {
    return this.config.appUrl ?? `http://localhost:${this.config.port}`;
  }
}
