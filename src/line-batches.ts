/**
 * Log lines gathered into batches before they reach the process log's destination.
 *
 * Why not sonic-boom's own batching (`minLength`): it appends each line to its pending string
 * and measures that string's byte length on every write, which flattens it, so every line
 * copied the whole batch so far; the response cache answers a request in about the time
 * those copies took. Here a batch is joined once, when it is full or flushed, and handed over
 * as one write: each byte is copied once.
 */
export interface LineSink {
  write(batch: string): unknown;
}

export class LineBatches {
  #lines: string[] = [];
  #chars = 0;

  constructor(
    private readonly sink: LineSink,
    /** A batch is handed over once it holds this many characters. */
    private readonly batchChars: number,
  ) {
    if (!Number.isSafeInteger(batchChars) || batchChars < 1)
      throw new Error(`batchChars must be a positive integer: ${batchChars}`);
  }

  write(line: string): void {
    this.#lines.push(line);
    this.#chars += line.length;
    if (this.#chars >= this.batchChars) this.flush();
  }

  /** Hands over the lines gathered so far, if any. */
  flush(): void {
    if (this.#lines.length === 0) return;
    const batch = this.#lines.length === 1 ? (this.#lines[0] as string) : this.#lines.join('');
    this.#lines = [];
    this.#chars = 0;
    this.sink.write(batch);
  }

  /** Lets go of the lines gathered and not handed over. */
  discard(): void {
    this.#lines = [];
    this.#chars = 0;
  }
}

/** Lines in a batch (each ends with a newline), for counting what a dropped batch held. */
export function linesIn(batch: unknown): number {
  const text = String(batch);
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}
