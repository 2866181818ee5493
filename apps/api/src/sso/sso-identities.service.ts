import { Inject, Injectable } from '@nestjs/common';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import { passwordAccess } from '../auth/local-login-policy';
import type { SessionPrincipal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Transactions } from '../database/transactions';
import { SsoAccountsRepository } from './sso-accounts.repository';
import { IdentityRow, SsoRepository } from './sso.repository';

/** A user's own connected identities (Security in the admin app). */
@Injectable()
export class SsoIdentitiesService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repository: SsoRepository,
    private readonly users: SsoAccountsRepository,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  list(principal: SessionPrincipal): Promise<IdentityRow[]> {
    return this.repository.identitiesOfUser(principal.userId);
  }

  /** Disconnects one of the caller's identities, only while another way to sign in remains. */
  async disconnect(principal: SessionPrincipal, identityId: string, origin: RequestOrigin): Promise<void> {
    await this.transactions.run(async (tx) => {
      await this.repository.lockUser(principal.userId, tx);
      const identities = await this.repository.identitiesOfUser(principal.userId, tx);
      const identity = identities.find((row) => row.id === identityId);
      if (!identity) throw ApiError.notFound();
      const user = await this.users.getUser(principal.userId, tx);
      // A password only counts when local sign-in is open to this user.
      const passwordUsable = passwordAccess(this.config.auth, user).usable;
      // No password can be set here instead: an account without one cannot set one (password_not_set), and one
      // whose local sign-in is closed would still not sign in with it.
      if (!passwordUsable && identities.length <= 1) {
        throw new ApiError(409, 'last_login_method', 'This is your only way to sign in; connect another provider first.');
      }
      await this.repository.deleteIdentity(identity.id, tx);
      await this.audit.record(
        'unlink',
        { userId: user.id, familyId: user.familyId, providerId: identity.providerId, providerName: identity.providerName, origin, details: { identity_id: identity.id } },
        tx,
      );
    });
  }
}
