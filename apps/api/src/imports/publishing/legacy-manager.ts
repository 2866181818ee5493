import type { EntityManager } from 'typeorm';
import type { Transaction } from '../../database/transactions';

/**
 * The manager behind a publish's transaction, for the functions of imports/ that still take an EntityManager on main
 * (liveRecordIds, placeCategories, markServiceImportReverted); it goes when they take a Transaction.
 */
export const legacyManager = (tx: Transaction): EntityManager => tx as unknown as EntityManager;
