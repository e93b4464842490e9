/**
 * Response-cache hits in the request log, summed up: one line a second for each stored answer,
 * key, method, path and status that had hits in it, with how many (`requests`) and the longest
 * of their durations (`durationMs`), instead of a line for each hit.
 *
 * Why: a hit does little but write stored bytes, and its own log line (made, batched, written,
 * and in a group of workers passed on by the primary) was a large share of what it cost. Hits
 * are also most of the lines a busy gateway writes, and every one of them says the same but for
 * its duration. A summary keeps what a line of theirs tells (which operation, which key, what
 * answer, how slow at worst) at one line per second per answer. Every other request keeps its
 * own line (request-log.ts); `LOG_CACHE_HITS=each` gives hits theirs too.
 */
import type { Logger } from 'pino';
import { type FieldLine, fieldLines } from '../../log-lines.js';
import {
  type LoggedOperation,
  operationFields,
  perStatus,
  type RequestLogFields,
} from './request-log.js';

/** Logs one hit: its method, path, status and when it arrived. */
export type HitLine = (fields: Omit<RequestLogFields, 'operation'>) => void;

/** The hits of one line since its last summary. */
interface Tally {
  readonly method: string | undefined;
  readonly path: string;
  readonly write: FieldLine;
  requests: number;
  longestMs: number;
}

/** How often the hits so far are summed up in a line each. */
export const HIT_SUMMARY_EVERY_MS = 1_000;

export class HitSummaries {
  /** The lines that had hits since the last summary. */
  readonly #due = new Set<Tally>();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly logger: Logger,
    everyMs = HIT_SUMMARY_EVERY_MS,
  ) {
    this.#timer = setInterval(() => this.flush(), everyMs);
    this.#timer.unref();
  }

  /** The line of one stored answer's hits for one key (`operation`: its fields in the log). */
  lineFor(operation: LoggedOperation): HitLine {
    const fixed = Object.entries(operationFields(operation));
    const tallyOf = perStatus<Tally>(
      ({ method, path, status }) => ({
        method,
        path,
        write: fieldLines(
          this.logger,
          [
            ['method', method],
            ['path', path],
            ['status', status],
            'requests',
            'durationMs',
            ...fixed,
          ],
          'request',
        ),
        requests: 0,
        longestMs: 0,
      }),
      // Another method or path of the same answer: what the one before had is summed up first.
      (replaced) => this.#write(replaced),
    );
    return (fields) => {
      const tally = tallyOf(fields);
      tally.requests += 1;
      if (fields.startedAt !== undefined) {
        const ms = performance.now() - fields.startedAt;
        if (ms > tally.longestMs) tally.longestMs = ms;
      }
      this.#due.add(tally);
    };
  }

  /** Writes a line for each answer with hits since the last summary. */
  flush(): void {
    for (const tally of this.#due) this.#write(tally);
    this.#due.clear();
  }

  /** The last summary, and no more: the gateway is closing. */
  close(): void {
    clearInterval(this.#timer);
    this.flush();
  }

  #write(tally: Tally): void {
    if (tally.requests === 0) return;
    const numbers = [tally.requests, Math.round(tally.longestMs * 10) / 10];
    tally.requests = 0;
    tally.longestMs = 0;
    tally.write(numbers);
  }
}
