import type { EntityManager } from 'typeorm';
import type { Transaction } from '../../database/transactions';

/**
 * The manager behind a publish's transaction, for the publishers' statements not yet moved to a repository (issue
 * 31); this file goes with the last of them.
 */
export const unmovedStatements = (tx: Transaction): EntityManager => tx as unknown as EntityManager;
