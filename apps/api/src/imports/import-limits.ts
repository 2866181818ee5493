import type { ImportType } from '@hearth/contracts';
import { importFormat } from './formats/registry';

/** Rows an import may publish: the configured limit (IMPORT_MAX_ROWS), or the format's own (50 for AccountImport, as in Sure). */
export function maxRowCount(type: ImportType, configuredMax: number): number {
  return importFormat(type).rowLimit.max(configuredMax);
}
