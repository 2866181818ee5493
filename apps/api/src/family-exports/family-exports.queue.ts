export const FAMILY_EXPORTS_QUEUE = 'family-exports';

export interface FamilyExportJob {
  exportId: string;
  familyId: string;
}
