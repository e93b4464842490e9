/**
 * What the upstream layer tells operations about its decisions. The code
 * that reads the upstream calls these hooks (one line each) and knows
 * nothing of Prometheus or OpenTelemetry; metrics.ts and tracing count and
 * annotate behind this interface.
 *
 * Labels are bounded: `resource` is the request's resource name (a fixed
 * set from endpoints.ts), never a path, which would carry user input.
 */
export type CacheLevel = 'l1' | 'l2' | 'response';

/** What became of one HTTP request sent upstream: its status code, or `error` when no answer came. */
export type UpstreamOutcome = number | 'error';

export interface UpstreamObserver {
  /** A cache level was asked for an answer; `hit` when a fresh entry answered. */
  cacheLookup(level: CacheLevel, hit: boolean, resource?: string): void;
  /** A read joined a call already in flight instead of making its own. */
  singleFlightJoined(resource: string): void;
  /** An expired entry answered because the upstream failed. */
  staleServed(resource: string): void;
  /** An HTTP request is leaving now; the returned function is called once, when its answer (or failure) is known. */
  requestSent(resource: string): (outcome: UpstreamOutcome) => void;
}

export const SILENT_OBSERVER: UpstreamObserver = {
  cacheLookup() {},
  singleFlightJoined() {},
  staleServed() {},
  requestSent: () => () => {},
};

/** One observer that tells all of `observers`, in order. */
export function observeAll(...observers: readonly UpstreamObserver[]): UpstreamObserver {
  return {
    cacheLookup: (level, hit, resource) => {
      for (const observer of observers) observer.cacheLookup(level, hit, resource);
    },
    singleFlightJoined: (resource) => {
      for (const observer of observers) observer.singleFlightJoined(resource);
    },
    staleServed: (resource) => {
      for (const observer of observers) observer.staleServed(resource);
    },
    requestSent: (resource) => {
      const done = observers.map((observer) => observer.requestSent(resource));
      return (outcome) => {
        for (const finish of done) finish(outcome);
      };
    },
  };
}
