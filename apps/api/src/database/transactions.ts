import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

declare const OPEN_TRANSACTION: unique symbol;

/**
 * An open database transaction as a service sees it: something to hand to the repositories that take part in
 * it, never something to query. Only repositories (and this folder) look inside, through `managerOf`, so SQL
 * stays in `*.repository.ts` while a use case still decides where its transaction begins and ends.
 */
export interface Transaction {
  readonly [OPEN_TRANSACTION]: true;
}

/** The TypeORM manager behind a transaction, or the pool's when there is none: for repositories only. */
export function managerOf(tx: Transaction | undefined, dataSource: DataSource): EntityManager {
  return tx ? (tx as unknown as EntityManager) : dataSource.manager;
}

/** Begins and commits transactions for use-case services (rolled back when the work throws). */
@Injectable()
export class Transactions {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(manager as unknown as Transaction));
  }
}
