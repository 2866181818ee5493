import type { ImportContentFacts } from '@hearth/contracts';
import { ApiError } from '../common/api-error';
import { checkedText, decodeBytes, DecodeResult, FILE_HEAD_BYTES, wrongFileKind } from '@hearth/domain/import-formats';
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
}

/** Of the contents a format accepts, the one an uploaded file is: the first whose extensions name the file's, else the first. */
function acceptedContent(format: ImportFormat, extension: string): ImportContentFacts {
  const { accepts } = format.facts;
  return accepts.find((content) => content.extensions.includes(extension)) ?? accepts[0];
}

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10}MB` : `${Math.round(bytes / 1024)}KB`);

/** Checks size and type of the content (file or inline text) and decodes it; nothing is stored yet. */
export function readUpload(format: ImportFormat, raw: string | undefined, file: UploadedFile | undefined, maxTextBytes: number): ImportContent {
  const extension = /\.[^.]+$/.exec(file?.originalname.toLowerCase() ?? '')?.[0] ?? '';
  const rules = file ? acceptedContent(format, extension) : format.facts.accepts[0];
  const maxBytes = rules.maxBytes ?? maxTextBytes;
  if (file) {
    if (file.size > maxBytes) {
      throw new ApiError(422, 'file_too_large', `File is too large. Maximum size is ${sizeText(maxBytes)}.`);
    }
    // What the bytes are decides before what the client labelled them: an XLSX may come as application/vnd.ms-excel.
    const fileName = safeFileName(file.originalname);
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
