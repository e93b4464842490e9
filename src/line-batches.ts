/**
 * Log lines gathered into batches of bytes before they reach the process log's destination.
 *
 * Why not sonic-boom's own batching (`minLength`): it appends each line to its pending string
 * and measures that string's byte length on every write, which flattens it, so every line
 * copied the whole batch so far. Why bytes rather than joined strings: a joined batch was
 * flattened once to join it, scanned for its byte length, then encoded again to be written;
 * here each line is encoded once, into the batch it travels in, and the batch is written as
 * it is.
 */
export interface LineSink {
  write(batch: Buffer): unknown;
}

export class LineBatches {
  #chunk: Buffer;
  #used = 0;

  constructor(
    private readonly sink: LineSink,
    /** A batch is handed over once the next line would not fit in this many bytes. */
    private readonly batchBytes: number,
  ) {
    if (!Number.isSafeInteger(batchBytes) || batchBytes < 1)
      throw new Error(`batchBytes must be a positive integer: ${batchBytes}`);
    this.#chunk = Buffer.allocUnsafeSlow(batchBytes);
  }

  write(line: string): void {
    // A UTF-16 unit is at most three bytes of UTF-8: only a line near the end is measured.
    const mayNotFit = line.length * 3 > this.#chunk.length - this.#used;
    if (mayNotFit && !this.#fits(Buffer.byteLength(line), () => Buffer.from(line))) return;
    this.#used += this.#chunk.write(line, this.#used);
  }

  /** Lines already encoded, each ending with a newline (a worker's, passed on by its primary). */
  writeBytes(lines: Buffer): void {
    if (!this.#fits(lines.length, () => Buffer.from(lines))) return;
    this.#used += lines.copy(this.#chunk, this.#used);
  }

  /**
   * Makes room for `bytes` more in the batch, handing it over first if need be; false when they
   * are more than a batch holds, and were written on their own (`alone`), after the batch.
   */
  #fits(bytes: number, alone: () => Buffer): boolean {
    if (bytes <= this.#chunk.length - this.#used) return true;
    this.flush();
    if (bytes <= this.#chunk.length) return true;
    this.sink.write(alone());
    return false;
  }

  /** Hands over the lines gathered so far, if any. */
  flush(): void {
    const used = this.#used;
    if (used === 0) return;
    this.#used = 0;
    // A batch waiting for a slow reader must not hold a whole chunk for a few lines: a small
    // one travels as a copy of its own, and the chunk is used again at once.
    if (used < this.#chunk.length / 2) {
      this.sink.write(Buffer.from(this.#chunk.subarray(0, used)));
      return;
    }
    const batch = this.#chunk.subarray(0, used);
    this.#chunk = Buffer.allocUnsafeSlow(this.batchBytes);
    this.sink.write(batch);
  }

  /** Lets go of the lines gathered and not handed over. */
  discard(): void {
    this.#used = 0;
  }
}

const NEWLINE = 0x0a;

/** Lines in a batch (each ends with a newline), for counting what a dropped batch held. */
export function linesIn(batch: unknown): number {
  const bytes = Buffer.isBuffer(batch) ? batch : Buffer.from(String(batch));
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE); at >= 0; at = bytes.indexOf(NEWLINE, at + 1)) count += 1;
  return count;
}
