import type { ContentFormat } from '@hearth/domain/import-formats';

/** How the new-import form asks for, previews and sends a type's content (the API's rules are in import-content.ts). */
export interface FileKind {
  /** What the type reads: a chosen file of another kind (a picture, a spreadsheet) is refused at once (wrongFileKind). */
  format: ContentFormat;
  /** What the drop zone asks for: "a CSV file". */
  noun: string;
  /** The file picker's accept list: the extensions (and media types) the API takes for the type. */
  accept: string;
  /** columns: a table of the first rows, with column pickers; lines: the first lines as text; none: name and size. */
  preview: 'columns' | 'lines' | 'none';
  /** Text the user can paste instead of choosing a file, sent as raw_file_content. */
  pasteable: boolean;
}

const CSV: FileKind = { format: 'csv', noun: 'a CSV file', accept: '.csv,.txt,text/csv', preview: 'columns', pasteable: true };
const KINDS: Readonly<Record<string, FileKind>> = {
  // QIF and NDJSON have fixed fields: a table of their lines split at commas would show columns that are not there.
  QifImport: { format: 'qif', noun: 'a QIF file', accept: '.qif', preview: 'lines', pasteable: true },
  ServiceImport: { format: 'ndjson', noun: 'an NDJSON file', accept: '.ndjson,.json', preview: 'lines', pasteable: true },
  PdfImport: { format: 'pdf', noun: 'a PDF statement', accept: '.pdf,application/pdf', preview: 'none', pasteable: false },
};

/** Every other type is a CSV file. */
export const fileKindOf = (type: string): FileKind => (Object.hasOwn(KINDS, type) ? KINDS[type] : CSV);
