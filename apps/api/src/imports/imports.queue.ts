export const IMPORTS_QUEUE = 'imports';

export interface PublishJob {
  importId: string;
  familyId: string;
}
