/** The first rows of the chosen file, as the browser parsed them. */
export function FilePreview({ rows }: { rows: string[][] }) {
  const [header, ...body] = rows;
  if (!header) return null;
  return (
    <div className="table-scroll">
      <table>
        <caption>Preview of the first {body.length} rows</caption>
        <thead>
          <tr>
            {header.map((h, i) => (
              <th key={i} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {body.map((row, r) => (
            <tr key={r}>
              {header.map((_, i) => (
                <td key={i}>{row[i] ?? ''}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
