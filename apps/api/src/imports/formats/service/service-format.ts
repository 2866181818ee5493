import { IMPORT_FORMAT_FACTS } from '@hearth/contracts';
import { deleteServiceImportBudgets, publishServiceImport } from '../../publishing/service-import.publisher';
import { withRows } from '../../publishing/publish-context';
import { defineFormat } from '../import-format';

/**
 * The service's own NDJSON (docs/api/service-ndjson.md): its records are stored in publish order with the expected
 * counts at upload (service-import.ts), checked by a strict preflight before anything is queued, and a publish is
 * verified by counts before and a readback after.
 */
export const serviceImport = defineFormat({
  type: 'ServiceImport',
  facts: IMPORT_FORMAT_FACTS.ServiceImport,
  reparsedOnChange: false,
  rows: { store: (tx, imp, content, services) => services.serviceImports.storeRows(tx, imp, content.text, services.importMaxRows) },
  rowLimit: { max: (configured) => Math.max(100_000, configured) },
  publish: withRows(publishServiceImport),
  hooks: {
    preflight: (tx, imp, services) => services.serviceImports.assertPublishable(tx, imp, services.importMaxRows),
    verify: {
      begin: (imp, services) => services.verification.begin(imp),
      finish: (imp, error, services) => services.verification.finish(imp, error),
      explainFailure: (imp, error, services) => services.serviceImports.collisionsSinceCheck(imp, error),
    },
    // Budgets carry no import_id; the readback becomes `reverted` with the deletion.
    async beforeRevert(tx, imp, services) {
      await deleteServiceImportBudgets(tx, { ledger: services.ledger, publishing: services.publishing }, imp.familyId, imp.id);
      await services.verification.markReverted(tx, imp.id);
    },
    detail: (imp) => ({
      verification: {
        expected_record_counts: imp.expectedRecordCounts,
        readback: Object.keys(imp.readbackVerification).length ? imp.readbackVerification : { status: 'not_verified', checked_at: null },
      },
    }),
  },
});
