import { Worker } from 'node:worker_threads';
import type { PositionedText } from '@hearth/domain/import-formats';
import { ApiError } from '../common/api-error';

/** Pages read at most: a statement longer than this is not a statement. */
const MAX_PAGES = 200;
/** A text layer is read in well under a second; a file that takes longer is hostile or broken. */
const EXTRACT_TIMEOUT_MS = 20_000;
const WORKER_MEMORY_MB = 256;

// Runs in a worker thread: untrusted PDFs are parsed off the request thread, with their own memory cap and a
// deadline, so a crafted file can neither block the API nor exhaust its heap. pdf.js runs with eval and XFA off and
// loads no fonts; nothing in the document is executed. Messages: {items} or {error: <exception name>}.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
(async () => {
  const { getDocument } = await import(pathToFileURL(workerData.pdfjs).href);
  const task = getDocument({
    data: workerData.bytes, isEvalSupported: false, enableXfa: false, disableFontFace: true, useSystemFonts: false,
    disableAutoFetch: true, stopAtErrors: true, verbosity: 0,
  });
  try {
    const document = await task.promise;
    if (document.numPages > workerData.maxPages) return parentPort.postMessage({ error: 'TooManyPages', pages: document.numPages });
    const items = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      for (const item of content.items) {
        if (typeof item.str === 'string' && item.str.trim()) {
          // The font size is the text matrix's vertical scale: it says how wide a space between words is.
          const fontSize = Math.hypot(item.transform[2], item.transform[3]);
          items.push({ text: item.str, page: number, x: item.transform[4], y: item.transform[5], width: item.width, fontSize });
        }
      }
      page.cleanup();
    }
    parentPort.postMessage({ items });
  } catch (error) {
    parentPort.postMessage({ error: (error && error.name) || 'Error' });
  } finally {
    await task.destroy();
  }
})();
`;

type WorkerReply = { items: PositionedText[] } | { error: string; pages?: number };

/** The positioned text of a PDF's pages, read in a worker thread; unreadable files are a 422, never a crash. */
export async function extractPdfText(bytes: Uint8Array): Promise<PositionedText[]> {
  if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') {
    throw new ApiError(422, 'invalid_file_type', 'Invalid file type. Please upload a PDF file.');
  }
  const reply = await runWorker(new Uint8Array(bytes));
  if ('items' in reply) return reply.items;
  if (reply.error === 'TooManyPages') {
    throw new ApiError(422, 'unsupported_pdf', `The PDF has ${reply.pages} pages; statements of at most ${MAX_PAGES} pages can be read.`);
  }
  if (reply.error === 'PasswordException') throw new ApiError(422, 'unsupported_pdf', 'The PDF is password-protected; upload an unprotected statement.');
  if (reply.error === 'Timeout' || reply.error === 'WorkerFailed') throw new ApiError(422, 'unsupported_pdf', 'The PDF could not be read in time or within the memory allowed.');
  throw new ApiError(422, 'unsupported_pdf', 'The PDF could not be read (it is damaged or not a PDF).');
}

function runWorker(bytes: Uint8Array): Promise<WorkerReply> {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { pdfjs: require.resolve('pdfjs-dist/legacy/build/pdf.mjs'), bytes, maxPages: MAX_PAGES },
      transferList: [bytes.buffer as ArrayBuffer],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_MEMORY_MB },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (reply: WorkerReply) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(reply);
    };
    const timer = setTimeout(() => finish({ error: 'Timeout' }), EXTRACT_TIMEOUT_MS);
    worker.once('message', (reply: WorkerReply) => finish(reply));
    worker.once('error', () => finish({ error: 'WorkerFailed' }));
    worker.once('exit', () => finish({ error: 'WorkerFailed' }));
  });
}
