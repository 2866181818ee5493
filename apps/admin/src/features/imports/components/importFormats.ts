import { DEFAULT_IMPORT_TYPE, IMPORT_FORMAT_FACTS, type ImportFormatFacts, isImportType } from '@hearth/contracts';

/** What the API's contracts say of an import type; a name the app does not know is read as the default type (CSV). */
export const formatFacts = (type: string): ImportFormatFacts => IMPORT_FORMAT_FACTS[isImportType(type) ? type : DEFAULT_IMPORT_TYPE];

/** Types with nothing to configure: their files' fields are fixed (QIF, NDJSON, a PDF statement). */
export const hasFixedFormat = (type: string): boolean => formatFacts(type).fields.length === 0;

/** What the app calls an import type: its label ("OFX / QFX", "MT940"), else its name without "Import" ("Mint"). */
export const typeLabel = (type: string): string => (isImportType(type) ? (IMPORT_FORMAT_FACTS[type] as ImportFormatFacts).label : undefined) ?? type.replace(/Import$/, '');
