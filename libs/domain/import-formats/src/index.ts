export { checkedText, decodeBytes, longerThan, normalizeHeader, parseDate, parseNumber, shownValue, splitTags, yearsBefore } from './cells';
export type { DecodeResult } from './cells';
export { amountPrecisionError, parseImportContent, readImportContent } from './csv-import';
export type { CsvImportSettings, ParsedImport, ParsedRow, ParseOptions, ReadImport } from './csv-import';
export { detectQifDateLayout, normalizeQifDate, parseQif } from './qif';
export type { QifOptions } from './qif';
export * from './ndjson';
export { parsePdfStatement } from './pdf-statement';
export type { PositionedText, StatementOptions } from './pdf-statement';
