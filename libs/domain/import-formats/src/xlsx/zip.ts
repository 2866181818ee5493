import { Inflate } from 'fflate';

// Reading the few parts of a ZIP archive (an XLSX) that a sheet needs, under a byte budget. Nothing the archive says
// about sizes is trusted: each part is inflated in small pushes and counted as it comes out, so a zip bomb stops at
// the budget after inflating no more than it, whatever its entries claim.

export class SpreadsheetError extends Error {
  constructor(
    readonly code: 'invalid_xlsx' | 'invalid_file_type' | 'content_too_large' | 'sheet_not_found',
    message: string,
  ) {
    super(message);
  }
}

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  localOffset: number;
}

/**
 * Inflates raw DEFLATE data whole, throwing a RangeError past `maxBytes`; `partial`: the data is only the start of a
 * stream, inflated as far as it goes. node's zlib.inflateRawSync (maxOutputLength, and finishFlush Z_SYNC_FLUSH when
 * partial) is one, several times faster than inflating in JavaScript. Without one, parts are inflated in JavaScript
 * in small pushes (as in a browser).
 */
export type RawInflate = (data: Uint8Array, maxBytes: number, partial: boolean) => Uint8Array;

/** Bytes left to inflate across every part read from one archive. */
export interface InflateBudget {
  remaining: number;
  /** The whole budget, for the message that says it ran out. */
  total: number;
}

/** A ZIP with more entries than this is no spreadsheet (an XLSX has a dozen or so, a few hundred with many sheets). */
export const MAX_ZIP_ENTRIES = 10_000;
/** Compressed bytes given to the inflater at once: at deflate's best ratio (about 1:1032) a push yields at most ~4 MB. */
const PUSH_BYTES = 16 * 1024;
/** What a part inflated whole is handed on in: the XML reader decodes and scans it a slice at a time. */
const SLICE_BYTES = 1024 * 1024;
/**
 * Sheet XML packs 5 to 15 times smaller (cell references change on every row); a part that unpacks to more than
 * this many times its packed size, once past MIN_JUDGED_BYTES, is a zip bomb, refused before its budget is spent.
 */
const MAX_RATIO = 100;
const MIN_JUDGED_BYTES = 4 * 1024 * 1024;
/** A bomb packs alike throughout: this much of a part's packed data, inflated first, already unpacks past MAX_RATIO. */
const PROBE_BYTES = 64 * 1024;

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;

const incomplete = () =>
  new SpreadsheetError('invalid_xlsx', 'The XLSX file is incomplete or damaged (cut short in the upload or download?): save or download it again.');

class Reader {
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private check(at: number, length: number) {
    if (at < 0 || at + length > this.bytes.length) throw incomplete();
  }
  u16(at: number) {
    this.check(at, 2);
    return this.view.getUint16(at, true);
  }
  u32(at: number) {
    this.check(at, 4);
    return this.view.getUint32(at, true);
  }
  u64(at: number) {
    this.check(at, 8);
    const value = this.view.getBigUint64(at, true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw incomplete();
    return Number(value);
  }
  slice(at: number, length: number) {
    this.check(at, length);
    return this.bytes.subarray(at, at + length);
  }
}

/** Where the end-of-central-directory record is: within the last 64 KB (its comment) of the archive. */
function endRecord(reader: Reader): number {
  const { bytes } = reader;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (bytes[at] === 0x50 && bytes[at + 1] === 0x4b && reader.u32(at) === EOCD) return at;
  }
  throw incomplete();
}

/** The archive's entries by lower-cased name (part names of an Office file are case-insensitive), from its central directory. */
export function zipEntries(bytes: Uint8Array): Map<string, ZipEntry> {
  const reader = new Reader(bytes);
  const end = endRecord(reader);
  let count = reader.u16(end + 10);
  let offset = reader.u32(end + 16);
  if (count === 0xffff || offset === 0xffffffff) {
    if (end < 20 || reader.u32(end - 20) !== ZIP64_LOCATOR) throw incomplete();
    const zip64 = reader.u64(end - 20 + 8);
    if (reader.u32(zip64) !== ZIP64_EOCD) throw incomplete();
    count = reader.u64(zip64 + 32);
    offset = reader.u64(zip64 + 48);
  }
  if (count > MAX_ZIP_ENTRIES) {
    throw new SpreadsheetError('invalid_xlsx', `The file is a ZIP archive of ${count} entries, more than any spreadsheet has (at most ${MAX_ZIP_ENTRIES}).`);
  }
  const names = new TextDecoder();
  const entries = new Map<string, ZipEntry>();
  for (let i = 0, at = offset; i < count; i++) {
    if (reader.u32(at) !== CENTRAL_ENTRY) throw incomplete();
    const nameLength = reader.u16(at + 28);
    const extraLength = reader.u16(at + 30);
    const entry: ZipEntry = {
      name: names.decode(reader.slice(at + 46, nameLength)),
      flags: reader.u16(at + 8),
      method: reader.u16(at + 10),
      compressedSize: reader.u32(at + 20),
      localOffset: reader.u32(at + 42),
    };
    zip64Sizes(reader, entry, reader.u32(at + 24), at + 46 + nameLength, extraLength);
    entries.set(entry.name.toLowerCase(), entry);
    at += 46 + nameLength + extraLength + reader.u16(at + 32);
  }
  return entries;
}

/** The ZIP64 extra field holds, in this order, each of size, compressed size and offset that the entry marks 0xFFFFFFFF. */
function zip64Sizes(reader: Reader, entry: ZipEntry, size: number, extraAt: number, extraLength: number) {
  if (entry.compressedSize !== 0xffffffff && entry.localOffset !== 0xffffffff) return;
  for (let at = extraAt; at + 4 <= extraAt + extraLength; at += 4 + reader.u16(at + 2)) {
    if (reader.u16(at) !== 0x0001) continue;
    let field = at + 4;
    if (size === 0xffffffff) field += 8;
    if (entry.compressedSize === 0xffffffff) {
      entry.compressedSize = reader.u64(field);
      field += 8;
    }
    if (entry.localOffset === 0xffffffff) entry.localOffset = reader.u64(field);
    return;
  }
  throw incomplete();
}

const tooLarge = (budget: InflateBudget) =>
  new SpreadsheetError(
    'content_too_large',
    `The XLSX file unpacks to more than ${Math.round(budget.total / 1024 / 1024)}MB, more than a sheet an import can take would: save the sheet as CSV, or split it.`,
  );

/**
 * The entry's bytes, inflated in chunks as they are taken; each chunk is counted against the budget before it is
 * given out, so no more than the budget (and one push's output) is ever inflated.
 */
export function* entryChunks(bytes: Uint8Array, entry: ZipEntry, budget: InflateBudget, inflate?: RawInflate): Generator<Uint8Array> {
  const reader = new Reader(bytes);
  if (entry.flags & 0x1) throw new SpreadsheetError('invalid_xlsx', 'The XLSX file is encrypted: open it in Excel, remove the password and save it again.');
  if (reader.u32(entry.localOffset) !== LOCAL_ENTRY) throw incomplete();
  const dataAt = entry.localOffset + 30 + reader.u16(entry.localOffset + 26) + reader.u16(entry.localOffset + 28);
  const data = reader.slice(dataAt, entry.compressedSize);
  const spend = (chunk: Uint8Array) => {
    budget.remaining -= chunk.length;
    if (budget.remaining < 0) throw tooLarge(budget);
    return chunk;
  };
  if (entry.method === 0) {
    yield spend(data);
    return;
  }
  if (entry.method !== 8) throw new SpreadsheetError('invalid_xlsx', `The XLSX file uses a compression this reader does not know (method ${entry.method}): save it again from Excel or LibreOffice.`);
  const bomb = (inflated: number, packed: number) =>
    inflated > MIN_JUDGED_BYTES && inflated > MAX_RATIO * packed
      ? new SpreadsheetError('content_too_large', `The XLSX file's ${entry.name} unpacks to more than ${MAX_RATIO} times its packed size, as no spreadsheet does (a zip bomb?): it is refused unread.`)
      : null;
  if (inflate) {
    // By name: node's error comes from another realm under a test runner's sandbox.
    const overflowed = (error: unknown) => (error as Error | null)?.name === 'RangeError';
    if (data.length > PROBE_BYTES) {
      try {
        inflate(data.subarray(0, PROBE_BYTES), MAX_RATIO * PROBE_BYTES, true);
      } catch (error) {
        throw overflowed(error) ? bomb(MAX_RATIO * PROBE_BYTES + 1, PROBE_BYTES)! : incomplete();
      }
    }
    // Inflated no further than a real sheet's packing allows, nor than the budget.
    const byRatio = Math.max(MIN_JUDGED_BYTES, MAX_RATIO * data.length);
    const limit = Math.min(byRatio, Math.max(0, budget.remaining));
    let whole: Uint8Array;
    try {
      whole = inflate(data, limit, false);
    } catch (error) {
      if (!overflowed(error)) throw incomplete();
      throw limit < byRatio ? tooLarge(budget) : bomb(limit + 1, data.length)!;
    }
    spend(whole);
    for (let at = 0; at < whole.length; at += SLICE_BYTES) yield whole.subarray(at, at + SLICE_BYTES);
    return;
  }
  const out: Uint8Array[] = [];
  let ended = false;
  let inflated = 0;
  const inflater = new Inflate((chunk, final) => {
    out.push(chunk);
    ended ||= final;
  });
  for (let at = 0; at < data.length || !ended; at += PUSH_BYTES) {
    if (at >= data.length) throw incomplete();
    try {
      inflater.push(data.subarray(at, at + PUSH_BYTES), at + PUSH_BYTES >= data.length);
    } catch {
      throw incomplete();
    }
    for (const chunk of out.splice(0)) {
      inflated += chunk.length;
      const refused = bomb(inflated, Math.min(at + PUSH_BYTES, data.length));
      if (refused) throw refused;
      yield spend(chunk);
    }
  }
}
