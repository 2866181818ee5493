import type { ContentFormat } from '@hearth/domain/import-formats';
import { formatFacts } from './importFormats';

/** How the new-import form asks for, previews and sends a type's content (from the contracts' IMPORT_FORMAT_FACTS, which the API checks uploads against). */
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

/** The type's first accepted content, as the contracts describe it. */
export function fileKindOf(type: string): FileKind {
  const [content] = formatFacts(type).accepts;
  return { format: content.kind, noun: content.noun, accept: content.accept, preview: content.preview, pasteable: content.pasteable };
}
