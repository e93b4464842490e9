/** A pino logger whose lines a test can read: what an operator would find in the log. */
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';

export interface CapturedLog {
  readonly logger: Logger;
  /** Every line written so far, as JSON text. */
  lines(): string[];
}

export function captureLog(level = 'warn'): CapturedLog {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ level }, sink), lines: () => lines };
}
