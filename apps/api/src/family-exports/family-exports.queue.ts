import type { QueuedBy } from '../jobs/job-log';

export const FAMILY_EXPORTS_QUEUE = 'family-exports';

export interface FamilyExportJob extends QueuedBy {
  exportId: string;
  familyId: string;
}
