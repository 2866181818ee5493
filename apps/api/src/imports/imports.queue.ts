import type { QueuedBy } from '../jobs/job-log';

export const IMPORTS_QUEUE = 'imports';

export interface PublishJob extends QueuedBy {
  importId: string;
  familyId: string;
}
