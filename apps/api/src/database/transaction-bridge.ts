import type { EntityManager } from 'typeorm';
import type { Transaction } from './transactions';

/**
 * Issue 31 moves services from a TypeORM EntityManager to a `Transaction` one folder at a time. Until every folder
 * has moved, these let a moved folder and one that has not call each other, in both directions, so each compiles
 * before and after the other moves. Delete this file once nothing imports it.
 */

/** What a method shared across folders takes while its callers still differ: a Transaction or a TypeORM manager. */
export type TransactionOrManager = Transaction | EntityManager;

/** A Transaction handed to a method that still takes an EntityManager (typed as both, it fits either signature). */
export function asManager(tx: Transaction): Transaction & EntityManager {
  return tx as Transaction & EntityManager;
}

/** The manager behind either: for repositories only, as `managerOf`. */
export function managerOfEither(tx: TransactionOrManager | undefined, fallback: EntityManager): EntityManager {
  return (tx as EntityManager | undefined) ?? fallback;
}
