import { DataTable } from '../../../components/DataTable';

/** The first rows of the chosen file, as the browser parsed them. */
export function FilePreview({ rows }: { rows: string[][] }) {
  const [header, ...body] = rows;
  if (!header) return null;
  return (
    <DataTable caption={`Preview of the first ${body.length} rows`} columns={header} showCaption>
      {body.map((row, r) => (
        <tr key={r}>
          {header.map((_, i) => (
            <td key={i}>{row[i] ?? ''}</td>
          ))}
        </tr>
      ))}
    </DataTable>
  );
}
