/**
 * What one view's answer says, and one simulated day's row of figures.
 * Read from the answer only (status, errors and their codes, extensions), so
 * the harness measures whatever the gateway does.
 */

export interface Answer {
  readonly status: number;
  readonly body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
    extensions?: Record<string, unknown>;
  };
}

export interface Outcome {
  /** Answered with data and no error at all. */
  readonly full: boolean;
  /** Some error is RATE_LIMITED. */
  readonly refused: boolean;
  /** Some RATE_LIMITED error has no `extensions.resetsAt`. */
  readonly refusedWithoutResetsAt: boolean;
  /** Errors other than RATE_LIMITED (or a failed request), by code and message. */
  readonly otherErrors: readonly string[];
  /** Part of the answer came from an older data generation than the current one. */
  readonly fromOlderGeneration: boolean;
  /** Current generation − oldest generation read, when the gateway reports `freshness.oldestRead`. */
  readonly generationsBehind: number | undefined;
}

const RATE_LIMITED = 'RATE_LIMITED';

export function outcomeOf(answer: Answer): Outcome {
  const errors = answer.body.errors ?? [];
  const limited = errors.filter((error) => error.extensions?.code === RATE_LIMITED);
  // The message tells an upstream at fault from the gateway's own limits (its queue, its circuit).
  const otherErrors = errors
    .filter((error) => error.extensions?.code !== RATE_LIMITED)
    .map(({ extensions, message }) => `${String(extensions?.code ?? 'NO_CODE')}: ${message}`);
  if (answer.status !== 200 && errors.length === 0) otherErrors.push(`HTTP_${answer.status}`);
  const freshness = answer.body.extensions?.freshness as
    | {
        generation?: number | null;
        previousGeneration?: number;
        oldestRead?: { generation: number; readAt: string };
      }
    | undefined;
  const current = freshness?.generation ?? undefined;
  const oldest = freshness?.oldestRead?.generation;
  const generationsBehind =
    oldest === undefined || current === undefined || current === null
      ? undefined
      : current - oldest;
  return {
    full:
      answer.status === 200 &&
      errors.length === 0 &&
      answer.body.data !== null &&
      answer.body.data !== undefined,
    refused: limited.length > 0,
    refusedWithoutResetsAt: limited.some((error) => error.extensions?.resetsAt === undefined),
    otherErrors,
    fromOlderGeneration:
      generationsBehind === undefined
        ? (freshness?.previousGeneration ?? 0) > 0
        : generationsBehind > 0,
    generationsBehind,
  };
}

export interface DayRow {
  readonly day: number;
  /** Calls the upstream received during the simulated UTC day, and how many it answered 429. */
  calls: number;
  status429: number;
  views: number;
  full: number;
  /** Of the views in full, those answered (partly) from an older generation. */
  fullFromOlder: number;
  refused: number;
  /** Refusals of a page answered in full earlier in the run: must be 0. */
  refusedOnceAnswered: number;
  refusedWithoutResetsAt: number;
  /** Views with any other error: must be 0. */
  otherErrors: number;
  readonly otherCodes: Map<string, number>;
  /** Views of the run's 100 most-viewed artists (through this day) with data ≥ 2 generations old, by `oldestRead`; null when never reported. */
  headStaleByReport: number | null;
  /**
   * The same judged from the data, as a user sees it: the artist's totalStreams (partial answers
   * included) against the data day the upstream had published when the view was asked.
   */
  headStaleByData: number;
  /** Views of this day's own 100 most-viewed artists with data ≥ 2 generations old, by `oldestRead`. */
  dayHeadStale: number;
  clairvoyantFull: number;
  clairvoyantCalls: number;
  /** The ledger's count of the day's calls by the plan's purpose, read just before the day ends. */
  byPurpose: { poll: number; refresh: number; firstTouch: number } | null;
}

export function emptyRow(day: number): DayRow {
  return {
    day,
    calls: 0,
    status429: 0,
    views: 0,
    full: 0,
    fullFromOlder: 0,
    refused: 0,
    refusedOnceAnswered: 0,
    refusedWithoutResetsAt: 0,
    otherErrors: 0,
    otherCodes: new Map(),
    headStaleByReport: null,
    headStaleByData: 0,
    dayHeadStale: 0,
    clairvoyantFull: 0,
    clairvoyantCalls: 0,
    byPurpose: null,
  };
}
