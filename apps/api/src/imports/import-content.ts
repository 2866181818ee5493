import { constants, inflateRawSync } from 'node:zlib';
import type { ImportContentFacts } from '@hearth/contracts';
import { ApiError } from '../common/api-error';
import { checkedText, decodeBytes, DecodeResult, FILE_HEAD_BYTES, RawInflate, readSpreadsheet, statementFormatOf, tableText, wrongFileKind } from '@hearth/domain/import-formats';
import type { ImportFormat } from './formats/import-format';

export interface UploadedFile {
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

export interface ImportContent {
  text: string;
  fileName: string | null;
  /** The upload's bytes, for content read as bytes (PDF). */
  bytes?: Buffer;
  /** What the format's parser reads of content read as bytes (a PDF statement's text layer), set by its `bytes` hooks. */
  decoded?: unknown;
  /** The separator `text` is written with, when the import's own col_sep does not say (a spreadsheet's table as CSV). */
  colSep?: string;
}

/** Of the contents a format accepts, the one an uploaded file is: the first whose extensions name the file's, else the first. */
function acceptedContent(format: ImportFormat, extension: string): ImportContentFacts {
  const { accepts } = format.facts;
  return accepts.find((content) => content.extensions.includes(extension)) ?? accepts[0];
}

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10}MB` : `${Math.round(bytes / 1024)}KB`);

/** node's zlib: a workbook's parts inflate natively, stopped at the reader's budget (maxOutputLength). */
const inflate: RawInflate = (data, maxBytes, partial) =>
  inflateRawSync(data, { maxOutputLength: Math.max(1, maxBytes), ...(partial ? { finishFlush: constants.Z_SYNC_FLUSH } : {}) });

/**
 * A spreadsheet upload for a CSV type as the CSV text of its table (sheet: the workbook's sheet to read), or null
 * when the bytes are no spreadsheet (read as text, as before).
 */
function spreadsheetContent(file: UploadedFile, fileName: string | null, sheet: string | undefined, maxBytes: number): ImportContent | null {
  const table = readSpreadsheet(file.buffer, { fileName: fileName ?? '', sheet, maxTextBytes: maxBytes, inflate });
  if (!table) return null;
  if ('error' in table) throw new ApiError(422, table.error.code, table.error.message);
  const text = tableText(table.rows);
  if (Buffer.byteLength(text) > maxBytes) {
    throw new ApiError(422, 'content_too_large', `The sheet's table is larger than ${sizeText(maxBytes)} as text, the most one import takes: split it.`);
  }
  return { text, fileName, bytes: file.buffer, colSep: ',' };
}

/**
 * Checks size and type of the content (file or inline text) and decodes it; nothing is stored yet. A spreadsheet
 * uploaded for a CSV type is read as its table (`sheet` names an XLSX workbook's sheet).
 */
export function readUpload(format: ImportFormat, raw: string | undefined, file: UploadedFile | undefined, maxTextBytes: number, sheet?: string): ImportContent {
  const extension = /\.[^.]+$/.exec(file?.originalname.toLowerCase() ?? '')?.[0] ?? '';
  const rules = file ? acceptedContent(format, extension) : format.facts.accepts[0];
  const maxBytes = rules.maxBytes ?? maxTextBytes;
  if (sheet !== undefined && (rules.kind !== 'csv' || !file)) {
    throw ApiError.validation([`sheet names the sheet of an uploaded XLSX workbook to read: it does not apply to ${file ? format.type : 'raw_file_content'}`]);
  }
  if (file) {
    if (file.size > maxBytes) {
      throw new ApiError(422, 'file_too_large', `File is too large. Maximum size is ${sizeText(maxBytes)}.`);
    }
    // What the bytes are decides before what the client labelled them: an XLSX may come as application/vnd.ms-excel.
    const fileName = safeFileName(file.originalname);
    const spreadsheet = rules.kind === 'csv' ? spreadsheetContent(file, fileName, sheet, maxBytes) : null;
    if (spreadsheet) return spreadsheet;
    if (sheet !== undefined) throw ApiError.validation([`sheet names the sheet of an XLSX workbook to read, and ${fileName ? `"${fileName}"` : 'the file'} is not one`]);
    const wrongKind = wrongFileKind(fileName ?? '', file.buffer.subarray(0, FILE_HEAD_BYTES), rules.kind);
    if (wrongKind) throw new ApiError(422, 'invalid_file_type', wrongKind);
    if (!rules.mimeTypes.includes(file.mimetype) && !rules.extensions.includes(extension)) {
      throw new ApiError(422, 'invalid_file_type', `Invalid file type. Please upload ${rules.describe}.`);
    }
    if (file.size === 0) throw new ApiError(422, 'missing_content', 'The uploaded file is empty.');
    return { text: rules.decoder === 'bytes' ? '' : textOf(decodeBytes(file.buffer)), fileName, bytes: file.buffer };
  }
  if (raw === undefined || raw.trim() === '') {
    throw new ApiError(422, 'missing_content', 'Provide raw_file_content or upload a file.');
  }
  if (Buffer.byteLength(raw, 'utf8') > maxBytes) {
    throw new ApiError(422, 'content_too_large', `Content is too large. Maximum size is ${sizeText(maxBytes)}.`);
  }
  // Pasted text of a bank statement standard another type reads is refused naming that type, as an upload is.
  const head = Buffer.from(raw.slice(0, FILE_HEAD_BYTES));
  const statement = statementFormatOf(head);
  if (statement && statement !== rules.kind) throw new ApiError(422, 'invalid_file_type', wrongFileKind('', head, rules.kind)!);
  return { text: textOf(checkedText(raw)), fileName: null };
}

/** The name without any directory part or control characters: it is only ever shown, never used as a path. */
export function safeFileName(name: string): string | null {
  // eslint-disable-next-line no-control-regex
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return base ? base.slice(0, 255) : null;
}

function textOf(result: DecodeResult): string {
  if ('error' in result) throw new ApiError(422, result.error.code, result.error.message);
  return result.text;
}
