/**
 * What a cluster's workers write, passed on by their primary. Workers never hold the primary's
 * stdout or stderr: a descriptor shared between processes is one open file, whose blocking mode
 * each process sets for all (libuv makes an inherited stdout blocking in every child it forks,
 * and Node puts the mode it started with back at exit), so one process's write to a stalled
 * reader could block another's exit. Each worker writes to its own pipe instead, which its
 * primary always reads, and the primary alone writes the group's output, through its bounded
 * log: a stalled reader costs the group dropped lines, never a stalled worker.
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { ProcessLog } from './logger.js';

/** A worker's line past this length without its end is passed on as it is, so nothing grows without bound. */
const MAX_LINE_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;
const NEWLINE_BYTES = Buffer.from('\n');
/** What the primary's stderr may hold for a slow reader; past it, a worker's error output is dropped. */
const MAX_STDERR_BUFFERED = 1024 * 1024;

/** The stdio a worker is forked with: a pipe each for stdout and stderr, read by its primary. */
export const WORKER_STDIO = ['ignore', 'pipe', 'pipe', 'ipc'] as const;

/**
 * What passes each worker's stdout to `log` line by line (the pipe's chunks split lines anywhere,
 * and two workers' halves must not meet), and its stderr to the primary's. The promise a
 * worker's relay returns resolves once both have ended: the worker's last lines are in `log`.
 */
export function workerOutputRelay(
  log: Pick<ProcessLog, 'writeLines'>,
): (worker: Pick<ChildProcess, 'stdout' | 'stderr'>) => Promise<void> {
  // The primary's stderr is a stream on the event loop: an EPIPE is an event, heard here so
  // that it does not crash the primary, and a stalled reader leaves writes queued, bounded below.
  process.stderr.on('error', () => {});
  return (worker) => {
    const { stdout, stderr } = worker;
    return Promise.all([
      stdout ? relayLines(stdout, log) : undefined,
      stderr ? relayErrors(stderr) : undefined,
    ]).then(() => undefined);
  };
}

function relayLines(stdout: Readable, log: Pick<ProcessLog, 'writeLines'>): Promise<void> {
  // Bytes, as the worker wrote them: a line is cut at its newline byte, which UTF-8 never
  // uses inside a character, and passed on without being decoded and encoded again.
  let partial: Buffer[] = [];
  let partialBytes = 0;
  const passOn = (lines: Buffer) => {
    const whole = partialBytes === 0 ? lines : Buffer.concat([...partial, lines]);
    partial = [];
    partialBytes = 0;
    log.writeLines(whole);
  };
  stdout.on('data', (chunk: Buffer) => {
    const end = chunk.lastIndexOf(NEWLINE);
    if (end < 0) {
      partial.push(chunk);
      partialBytes += chunk.length;
      if (partialBytes >= MAX_LINE_BYTES) passOn(NEWLINE_BYTES);
      return;
    }
    const rest = chunk.subarray(end + 1);
    passOn(chunk.subarray(0, end + 1));
    if (rest.length > 0) {
      // Copied: a slice would keep the whole chunk alive for the few bytes of a line begun.
      partial.push(Buffer.from(rest));
      partialBytes = rest.length;
    }
  });
  return ended(stdout).then(() => {
    if (partialBytes > 0) passOn(NEWLINE_BYTES);
  });
}

function relayErrors(stderr: Readable): Promise<void> {
  stderr.on('data', (chunk: Buffer) => {
    if (process.stderr.writableLength < MAX_STDERR_BUFFERED) process.stderr.write(chunk);
  });
  return ended(stderr);
}

/** Resolves when `stream` has ended or failed: either way, nothing more comes from it. */
function ended(stream: Readable): Promise<void> {
  return new Promise((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
}
