import cluster from 'node:cluster';
import pino, { type Logger } from 'pino';
import { LineBatches, type LineSink, linesIn } from './line-batches.js';
import { traceFields } from './observability/log-trace.js';

/** What a log write may hold in memory while the reader is slow; past it, lines are dropped and counted. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

const OPTIONS = {
  // In a group of workers (WORKERS > 1), each line names the worker that wrote it.
  base: {
    service: 'music-stats-gateway',
    ...(cluster.worker === undefined ? {} : { worker: cluster.worker.id }),
  },
  redact: ['req.headers.authorization', 'headers.authorization', 'apiKey'],
};

/**
 * JSON lines on `destination` (tests pass a sink); the Authorization header is never logged,
 * whatever a plugin passes. `traced`: lines carry the trace they are written in; asking for
 * it on every line of a process that exports no trace would find none, on every request.
 */
export function createLogger(
  level: string,
  destination?: pino.DestinationStream,
  { traced = false }: { readonly traced?: boolean } = {},
): Logger {
  const options = { level, ...OPTIONS, ...(traced ? { mixin: traceFields } : {}) };
  return destination === undefined ? pino(options) : pino(options, destination);
}

/**
 * Lines are written in batches of up to this many bytes (or every FLUSH_EVERY_MS): each
 * asynchronous write costs the process a hand-over to libuv's threads and back, about what
 * forming dozens of lines costs, and there is one line for every request the response cache
 * answers (line-batches.ts).
 */
const BATCHED_BYTES = 64 * 1024;
const FLUSH_EVERY_MS = 100;

export interface ProcessLog {
  readonly logger: Logger;
  /**
   * Writes what is still buffered, for at most `timeoutMs`, then lets go of stdout: nothing is
   * written synchronously at exit, so a dead or stalled reader cannot hold the process.
   */
  close(timeoutMs: number): Promise<void>;
  /** Lets go of stdout at once (a forced exit). */
  abandon(): void;
  /**
   * Writes lines already formed, each ending with a newline, as the log's own: a cluster's
   * primary passes its workers' lines on this way (worker-output.ts).
   */
  writeLines(lines: Buffer): void;
}

/**
 * The gateway process's log on stdout. The log must never stop the gateway: writes are
 * asynchronous into a bounded buffer (a stalled reader costs dropped lines, not blocked
 * requests), and the first write error (EPIPE once the reader is gone) turns logging off for good.
 */
export function createProcessLog(
  level: string,
  { traced = false }: { readonly traced?: boolean } = {},
): ProcessLog {
  // At an exit nobody closed the log for (a fatal error, then exit), the lines of the batch
  // still gathering go to the destination before pino's own exit hook writes what it holds:
  // this listener is added first, so it runs first.
  const handOverAtExit = () => batches.flush();
  process.once('exit', handOverAtExit);
  // Node's stdout stream, once made, puts a pipe or socket in non-blocking mode: a stalled reader
  // then makes a write come back to be tried again, rather than hold one of libuv's threads,
  // which the process's exit would wait for.
  void process.stdout.fd;
  // Batches are written as they come, one write at a time: the next waits for the last.
  const destination = pino.destination({
    dest: 1,
    sync: false,
    maxLength: MAX_BUFFERED_BYTES,
    contentMode: 'buffer',
  });
  // In buffer mode sonic-boom writes Buffers as they are; its typings know only strings.
  const batches = new LineBatches(destination as unknown as LineSink, BATCHED_BYTES);
  const logger = createLogger(level, batches, { traced });
  let broken = false;
  let released = false;
  let dropped = 0;
  // Lines wait for a batch to fill, but never longer than this: a quiet gateway's log stays current.
  const flusher = setInterval(() => {
    if (!broken && !released) batches.flush();
  }, FLUSH_EVERY_MS);
  flusher.unref();

  // pino's own listener already turns the destination into a no-op on EPIPE; any other error
  // would be re-emitted, and unheard, crash the process. Either way: stop logging, once.
  destination.on('error', () => {
    broken = true;
    logger.level = 'silent';
  });
  destination.on('drop', (batch: unknown) => {
    dropped += linesIn(batch);
  });
  destination.on('drain', () => {
    if (dropped === 0 || broken) return;
    const lines = dropped;
    dropped = 0;
    logger.warn({ droppedLines: lines }, 'log output stalled: lines were dropped');
  });

  const abandon = () => {
    // Destroyed, the destination is skipped by pino's exit hook, whose synchronous flush
    // would otherwise retry a dead or full pipe for ever.
    if (released) return;
    released = true;
    clearInterval(flusher);
    process.off('exit', handOverAtExit);
    // A line logged after this (a signal repeated by npm, say) is dropped, not thrown.
    logger.level = 'silent';
    batches.discard();
    destination.destroy();
  };

  return {
    logger,
    abandon,
    writeLines(lines) {
      if (!broken && !released) batches.writeBytes(lines);
    },
    async close(timeoutMs) {
      if (!broken && !released) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, timeoutMs);
          const done = () => {
            clearTimeout(timer);
            resolve();
          };
          destination.once('close', done);
          destination.once('error', done);
          batches.flush();
          destination.end();
        });
      }
      abandon();
    },
  };
}
