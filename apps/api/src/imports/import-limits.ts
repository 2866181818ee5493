import type { ImportType } from '@hearth/contracts';

export const MAX_PDF_BYTES = 25 * 1024 * 1024;

/** Rows an import may publish: the configured limit (IMPORT_MAX_ROWS), 50 for AccountImport as in Sure. */
export function maxRowCount(type: ImportType, configuredMax: number): number {
  if (type === 'AccountImport') return Math.min(50, configuredMax);
  if (type === 'ServiceImport') return Math.max(100_000, configuredMax);
  return configuredMax;
}
