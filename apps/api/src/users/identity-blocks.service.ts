import { Injectable } from '@nestjs/common';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import type { SessionPrincipal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { Transactions } from '../database/transactions';
import { IdentityBlockRow, IdentityBlocksRepository } from './identity-blocks.repository';

/** The "Removed SSO identities" of user management: super admins list them and allow one to sign in again. */
@Injectable()
export class IdentityBlocksService {
  constructor(
    private readonly transactions: Transactions,
    private readonly blocks: IdentityBlocksRepository,
    private readonly audit: AuditService,
  ) {}

  list(): Promise<IdentityBlockRow[]> {
    return this.blocks.list();
  }

  /** Deletes the block, audited in the same transaction: the identity may sign in, link or create an account again. */
  async allowAgain(actor: SessionPrincipal, id: string, origin: RequestOrigin): Promise<void> {
    await this.transactions.run(async (tx) => {
      const block = await this.blocks.findForUpdate(id, tx);
      if (!block) throw ApiError.notFound();
      // Ids only, as for user_removed: the removed user's e-mail stays out of the audit log.
      await this.audit.record(
        'identity_unblocked',
        { providerId: block.providerId, providerName: block.providerName, origin, details: { actor_user_id: actor.userId, identity_block_id: block.id } },
        tx,
      );
      await this.blocks.delete(block.id, tx);
    });
  }
}
