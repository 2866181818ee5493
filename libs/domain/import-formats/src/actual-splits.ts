import { sameNumber, sumOf } from './cells';
import type { ParsedRow } from './csv-import';

// Actual Budget exports a split transaction as a parent row, its total in Split_Amount and its notes prefixed
// "(SPLIT INTO n) ", followed by its n parts, each prefixed "(SPLIT k OF n) ".

/** Where a row stands in a split, read from its notes' prefix. */
export type SplitMarker = { into: number } | { part: number; of: number };

/** The split marker an Actual row's notes start with, and the notes without it (null when nothing is left). */
export function actualSplitMarker(notes: string): { marker: SplitMarker | null; notes: string | null } {
  const into = /^\(SPLIT INTO (\d+)\)\s*/.exec(notes);
  if (into) return { marker: { into: Number(into[1]) }, notes: notes.slice(into[0].length) || null };
  const part = /^\(SPLIT (\d+) OF (\d+)\)\s*/.exec(notes);
  if (part) return { marker: { part: Number(part[1]), of: Number(part[2]) }, notes: notes.slice(part[0].length) || null };
  return { marker: null, notes: notes || null };
}

/** The key under which the row builder leaves a row's marker for groupActualSplits (removed there). */
export const SPLIT_MARKER = 'split_marker';

interface OpenSplit {
  parent: ParsedRow;
  into: number;
  parts: ParsedRow[];
}

/**
 * Checks that each split parent is followed by exactly its parts, in order, on its account and date, adding up to
 * its total; a parent gets `split_count`, each part `split_of` (the parent's row number). A parent is held back
 * until its parts are read, so its errors are on it when it is taken. `skipped`: the row numbers left out of the
 * import (skip_rows), named in the error of a split they leave incomplete.
 */
export function* groupActualSplits(rows: Iterable<ParsedRow>, skipped: ReadonlySet<number> = new Set()): Generator<ParsedRow> {
  let sorted: number[] | null = null;
  /** Why a split lacks rows, when rows it needs (from..to) are skipped; '' when none is. */
  const skippedAmong = (from: number, to: number) => {
    if (!skipped.size) return '';
    const list = (sorted ??= [...skipped].sort((a, b) => a - b));
    let lo = 0;
    for (let hi = list.length; lo < hi; ) {
      const mid = (lo + hi) >> 1;
      if (list[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    const among: number[] = [];
    for (let i = lo; i < list.length && list[i] <= to && among.length < 10; i++) among.push(list[i]);
    if (!among.length) return '';
    const named = among.length === 1 ? `row ${among[0]} is` : `rows ${among.join(', ')} are`;
    return ` (${named} skipped: skip the whole split, or include ${among.length === 1 ? 'it' : 'them'} again)`;
  };
  let open: OpenSplit | null = null;
  function* close(): Generator<ParsedRow> {
    if (!open) return;
    const { parent, into, parts } = open;
    open = null;
    const row = parent.sourceRowNumber;
    if (parts.length !== into) {
      parent.errors.push(`Row ${row}: a split into ${into} must be followed by its ${into} split rows; ${parts.length} follow it${skippedAmong(row + 1, row + into)}`);
    }
    else {
      const amounts = parts.map((p) => p.values.amount);
      const total = parent.values.amount;
      if (typeof total === 'string' && amounts.every((a): a is string => typeof a === 'string') && !sameNumber(sumOf(amounts), total)) {
        parent.errors.push(`Row ${row}: its split rows add up to ${sumOf(amounts)}, not to the split's total ${total}`);
      }
    }
    yield parent;
    yield* parts;
  }
  for (const row of rows) {
    const marker = row.values[SPLIT_MARKER] as SplitMarker | null | undefined;
    delete row.values[SPLIT_MARKER];
    if (marker && 'part' in marker) {
      const follows = open !== null && open.into === marker.of && open.parts.length + 1 === marker.part && marker.part <= marker.of &&
        open.parent.values.account === row.values.account && open.parent.values.date === row.values.date;
      if (follows && open) {
        row.values.split_of = open.parent.sourceRowNumber;
        open.parts.push(row);
        continue;
      }
      yield* close();
      const before = marker.part === 1 ? `a (SPLIT INTO ${marker.of}) row` : `split row ${marker.part - 1} of ${marker.of}`;
      const gap = skippedAmong(row.sourceRowNumber - 1, row.sourceRowNumber - 1);
      row.errors.push(`Row ${row.sourceRowNumber}: split row ${marker.part} of ${marker.of} must follow ${before} of the same account and date${gap}`);
      yield row;
      continue;
    }
    yield* close();
    if (marker) {
      row.values.split_count = marker.into;
      open = { parent: row, into: marker.into, parts: [] };
    } else yield row;
  }
  yield* close();
}
