import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ADVISORY_LOCKS } from '../database/advisory-locks';
import { RUNTIME } from '../database/database.module';
import type { Runtime } from '../runtime';

/**
 * Holds the accounts a publish writes for the whole publish, so that publishes touching one account run one after the
 * other: the later one's duplicate probe then sees every entry of the earlier one, and two uploads of one bank export
 * at once store it once. Held for the whole publish rather than per chunk, so that the chunks of one publish still
 * run two at a time.
 *
 * On PostgreSQL: transaction-level advisory locks (ADVISORY_LOCKS.accountPublish, hashtext(account id)) in a
 * transaction of their own that writes nothing, on its own pooled connection, committed when the publish ends; a
 * worker that dies takes its connection, and so its locks, with it. Accounts are locked in sorted order, so two
 * publishes sharing several accounts cannot each hold one the other waits for. Nothing else waits for these locks
 * while holding a row: a publish takes them after its mappings' transaction has committed and before its first chunk,
 * and reverts and the other writers of entries never take them.
 *
 * On the embedded engine (PGlite) a transaction held open would stop every other query, since PGlite serves one
 * session and gives an open transaction to its client alone; and that one session is its only user, this process.
 * There the same accounts are held in this process, in the same order.
 */
@Injectable()
export class AccountLocksRepository {
  /** Embedded engine: per account, the hold queued last (resolved when it is released). */
  private readonly inProcess = new Map<string, Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  /** Waits until no other publish holds any of `accountIds` and holds them; returns the release (never rejects). */
  async hold(accountIds: Array<string | null | undefined>): Promise<() => Promise<void>> {
    const ids = [...new Set(accountIds.filter((id): id is string => Boolean(id)))].sort();
    if (!ids.length) return async () => undefined;
    return this.runtime.database.embedded ? this.holdInProcess(ids) : this.holdInDatabase(ids);
  }

  private async holdInDatabase(ids: string[]): Promise<() => Promise<void>> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    const release = async () => {
      await runner.commitTransaction().catch(() => undefined);
      await runner.release();
    };
    try {
      await runner.startTransaction();
      // The wait lasts as long as the publish ahead, well past the pool's statement timeout; PostgreSQL only.
      await runner.query(`SELECT set_config('statement_timeout', '0', true)`);
      for (const id of ids) await runner.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [ADVISORY_LOCKS.accountPublish, id]);
      return release;
    } catch (error) {
      await release();
      throw error;
    }
  }

  private async holdInProcess(ids: string[]): Promise<() => Promise<void>> {
    const releases: Array<() => void> = [];
    for (const id of ids) {
      const ahead = this.inProcess.get(id) ?? Promise.resolve();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const held = ahead.then(() => released);
      this.inProcess.set(id, held);
      await ahead;
      releases.push(() => {
        release();
        if (this.inProcess.get(id) === held) this.inProcess.delete(id);
      });
    }
    return async () => releases.forEach((release) => release());
  }
}
