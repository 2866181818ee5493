import PDFDocument from 'pdfkit';

// Text-based statement PDFs in the layouts banks use, drawn with pdfkit: cells at fixed column positions.

export type StatementRow = string[];

interface Layout {
  title: string;
  headers: string[];
  columns: number[];
  rows: StatementRow[];
}

function render(draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 40 });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  draw(doc);
  doc.end();
  return done;
}

/** One table per page of at most 40 rows, the header repeated on every page. */
export function statementPdf({ title, headers, columns, rows }: Layout): Promise<Buffer> {
  return render((doc) => {
    for (let start = 0; start < Math.max(rows.length, 1); start += 40) {
      if (start > 0) doc.addPage();
      doc.fontSize(14).text(title, 40, 40);
      doc.fontSize(8).text('Account 12345678 · Statement period January 2024', 40, 62);
      doc.fontSize(9);
      headers.forEach((header, i) => doc.text(header, columns[i], 100, { lineBreak: false }));
      rows.slice(start, start + 40).forEach((row, r) =>
        row.forEach((cell, i) => cell && doc.text(cell, columns[i], 118 + r * 14, { lineBreak: false })),
      );
    }
  });
}

/**
 * A statement drawn one word per text item in a small monospaced font, as some banks' generators do: the words of a
 * cell stand one space (0.6 em) apart, which pdf.js reads as separate items with the spaces as items of their own.
 */
export function wordByWordStatementPdf({ title, headers, columns, rows }: Layout): Promise<Buffer> {
  return render((doc) => {
    doc.font('Courier').fontSize(6);
    const drawWords = (text: string, x: number, y: number) => {
      let left = x;
      for (const word of text.split(/( )/)) {
        if (word.trim()) doc.text(word, left, y, { lineBreak: false });
        left += doc.widthOfString(word);
      }
    };
    drawWords(title, 40, 40);
    headers.forEach((header, i) => drawWords(header, columns[i], 100));
    rows.forEach((row, r) => row.forEach((cell, i) => cell && drawWords(cell, columns[i], 118 + r * 14)));
  });
}

/** A "scanned" statement: only drawn shapes, no text layer. */
export function scannedPdf(): Promise<Buffer> {
  return render((doc) => {
    for (let r = 0; r < 10; r++) doc.rect(40, 100 + r * 14, 400, 8).fill('#333333');
  });
}
