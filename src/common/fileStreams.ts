// Writing a file as a stream without holding what is written: node-only, vscode-free.
import type { WriteStream } from 'node:fs';
import { once } from 'node:events';

/** Writes `text`, waiting for the stream to drain when its buffer is full. */
export async function writeText(out: WriteStream, text: string): Promise<void> {
  if (text && !out.write(text)) {
    await once(out, 'drain');
  }
}

/** Ends the file and waits until it is closed (a file still open cannot be renamed on Windows). */
export async function closeStream(out: WriteStream): Promise<void> {
  const closed = once(out, 'close');
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  await closed;
}
