import type { ReadStream } from 'node:tty';

/** The operator pressed Ctrl-C or Ctrl-D at the prompt. */
export class PromptCancelled extends Error {
  constructor() {
    super('cancelled at the password prompt');
  }
}

/**
 * `--password-stdin`: everything on standard input, less the one line ending that `echo` or a file adds
 * (`printf %s "$PW" | ...` and `... < file` give the same password).
 */
export async function readPasswordFromStdin(input: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/**
 * Asks for a password on a terminal without echoing it: raw mode keeps the terminal from printing keystrokes, and
 * nothing of what is typed is written back. Enter ends it; Backspace and Ctrl-U edit; Ctrl-C and Ctrl-D cancel.
 */
export function promptPassword(prompt: string, input: ReadStream = process.stdin as ReadStream, output: NodeJS.WritableStream = process.stderr): Promise<string> {
  input.setRawMode(true); // before the prompt shows, so nothing typed after it can echo
  output.write(prompt);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let typed: string[] = []; // code points, so Backspace removes a whole character
    const finish = (settle: () => void) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      settle();
    };
    const onData = (chunk: string) => {
      if (chunk.startsWith('\u001b')) return; // an arrow or function key's escape sequence
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish(() => resolve(typed.join('')));
        if (char === '\u0003' || (char === '\u0004' && typed.length === 0)) return finish(() => reject(new PromptCancelled()));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else if (char === '\u0015') typed = [];
        else if (char >= ' ') typed.push(char);
      }
    };
    input.on('data', onData);
  });
}
