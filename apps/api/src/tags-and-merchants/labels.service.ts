import { Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import { ApiError } from '../common/api-error';
import type { FamilyScope } from '../common/family-scope';
import { familyScopeOf } from '../common/family-scope';
import { pageWindow } from '../common/paging';
import { Transaction, Transactions } from '../database/transactions';
import { LABEL_USES_CAP, LabelKind, LabelRecord, LabelsRepository } from '../ledger/labels.repository';
import type { DeleteLabelQuery, LabelDeletionDto, LabelDto, ListLabelsQuery, RenameLabelDto } from './label.dto';
import type { PaginationDto } from '../common/paging';

const presentLabel = (label: LabelRecord): LabelDto => ({
  id: label.id,
  name: label.name,
  color: label.color,
  transactions_count: Math.min(label.transactionsCount, LABEL_USES_CAP),
  transactions_count_capped: label.transactionsCount > LABEL_USES_CAP,
  created_at: new Date(label.createdAt).toISOString(),
  updated_at: new Date(label.updatedAt).toISOString(),
});

/**
 * The household's tags and merchants: listed, renamed, and deleted or merged into another of the same kind with the
 * transactions that carried them. Each change runs under the family's mappings lock (LabelsRepository.lock), which
 * imports creating tags and merchants also take, so that a name checked free stays free until it commits.
 */
@Injectable()
export class LabelsService {
  constructor(
    private readonly labels: LabelsRepository,
    private readonly transactions: Transactions,
    private readonly audit: AuditService,
  ) {}

  async list(kind: LabelKind, principal: Principal, query: ListLabelsQuery): Promise<{ labels: LabelDto[]; pagination: PaginationDto }> {
    const scope = familyScopeOf(principal);
    const { window, pagination } = pageWindow(query, await this.labels.count(kind, scope));
    return { labels: (await this.labels.list(kind, scope, window)).map(presentLabel), pagination };
  }

  async show(kind: LabelKind, principal: Principal, id: string): Promise<LabelDto> {
    const found = await this.labels.find(kind, familyScopeOf(principal), id);
    if (!found) throw ApiError.notFound();
    return presentLabel(found);
  }

  /** A name another one has is refused: two of one name are one label, which DELETE with replacement_id makes them. */
  async rename(kind: LabelKind, principal: Principal, id: string, body: RenameLabelDto): Promise<LabelDto> {
    const scope = familyScopeOf(principal);
    await this.transactions.run(async (tx) => {
      await this.labels.lock(scope, tx);
      const label = await this.findOrFail(kind, scope, id, tx);
      if (body.name === label.name) return;
      const other = await this.labels.named(kind, scope, body.name, id, tx);
      if (other) {
        throw ApiError.validation([`name is already used by another ${kind} of this household: ${body.name}; to make them one, merge with DELETE /api/v1/${kind}s/${id}?replacement_id=${other.id}`]);
      }
      await this.labels.rename(kind, scope, id, body.name, tx);
    });
    return this.show(kind, principal, id);
  }

  /** Deletes in one transaction; with a replacement (a merge) its transactions carry the replacement instead. */
  async remove(kind: LabelKind, principal: Principal, id: string, query: DeleteLabelQuery, origin: RequestOrigin): Promise<LabelDeletionDto> {
    const scope = familyScopeOf(principal);
    return this.transactions.run(async (tx) => {
      await this.labels.lock(scope, tx);
      const deleted = await this.findOrFail(kind, scope, id, tx);
      const replacement = query.replacement_id === undefined ? null : await this.replacementFor(kind, scope, deleted, query.replacement_id, tx);
      const moved = replacement ? await this.labels.moveTransactions(kind, scope, deleted.id, replacement.id, tx) : 0;
      const lost = await this.labels.remove(kind, scope, deleted.id, tx);
      const outcome = { replacement_id: replacement?.id ?? null, transactions_moved: replacement ? moved : lost };
      await this.audit.record(`${kind}_deleted`, { userId: principal.userId, familyId: principal.familyId, origin, details: { [`${kind}_id`]: deleted.id, name: deleted.name, ...outcome } }, tx);
      return { id: deleted.id, ...outcome };
    });
  }

  private async findOrFail(kind: LabelKind, scope: FamilyScope, id: string, tx: Transaction): Promise<LabelRecord> {
    const found = await this.labels.find(kind, scope, id, tx);
    if (!found) throw ApiError.notFound();
    return found;
  }

  /** Another family's id is answered as an unknown one. */
  private async replacementFor(kind: LabelKind, scope: FamilyScope, deleted: LabelRecord, replacementId: string, tx: Transaction): Promise<LabelRecord> {
    if (replacementId.toLowerCase() === deleted.id.toLowerCase()) throw ApiError.validation([`replacement_id must be another ${kind} than the one deleted`]);
    const replacement = await this.labels.find(kind, scope, replacementId, tx);
    if (!replacement) throw ApiError.validation([`replacement_id is not a ${kind} of this household`]);
    return replacement;
  }
}
