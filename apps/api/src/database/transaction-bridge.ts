import type { EntityManager } from 'typeorm';
import type { Transaction } from './transactions';

// Bridges between a `Transaction` and the TypeORM manager behind it, for calls across code that has moved to
// `Transaction` and code that has not yet (issue 31). Delete each use once both sides take a `Transaction`.

/** The manager behind `tx`, for a callee that still takes an EntityManager. */
export function managerForLegacyCallee(tx: Transaction): EntityManager {
  return tx as unknown as EntityManager;
}

/** `manager` as a Transaction, from a caller that still holds an EntityManager (a transaction's, or the pool's). */
export function transactionFromLegacyCaller(manager: EntityManager): Transaction {
  return manager as unknown as Transaction;
}
