/**
 * The breaker of one process, and the state every breaker keeps: failures in
 * a row, how long the circuit stays open, whether the half-open probe is out.
 * A gateway without Redis uses it alone; with Redis it is what the shared
 * breaker (redis-circuit-breaker.ts) opens and asks, so that a call never
 * waits on Redis to learn what this process has seen itself. Durations come
 * from performance.now(), never the wall clock: a calendar that steps cannot
 * hold the circuit open, or close it early.
 */
import type { Logger } from 'pino';
import {
  type CircuitBreaker,
  type CircuitOptions,
  type CircuitState,
  circuitOpenError,
} from './circuit-breaker.js';

/** The breaker of one process. */
export class LocalCircuitBreaker implements CircuitBreaker {
  #failures = 0;
  #openUntil = 0;
  /** When the half-open probe left; a probe that never reports (refused by the budget) is retried after `openMs`. */
  #probingSince: number | undefined;

  constructor(
    private readonly options: CircuitOptions,
    private readonly logger?: Logger,
  ) {}

  get state(): CircuitState {
    if (this.#openUntil === 0) return 'closed';
    return performance.now() < this.#openUntil ? 'open' : 'half-open';
  }

  async admit(): Promise<void> {
    const state = this.state;
    if (state === 'closed') return;
    const probing =
      this.#probingSince !== undefined &&
      performance.now() - this.#probingSince < this.options.openMs;
    if (state === 'open' || probing) throw circuitOpenError();
    this.#probingSince = performance.now();
  }

  succeeded(): void {
    if (this.#openUntil !== 0)
      this.logger?.info('upstream circuit closed: the probe call succeeded');
    this.#failures = 0;
    this.#openUntil = 0;
    this.#probingSince = undefined;
  }

  failed(): void {
    this.#failures += 1;
    const probeFailed = this.#probingSince !== undefined;
    this.#probingSince = undefined;
    if (probeFailed || this.#failures >= this.options.failureThreshold)
      this.open(this.options.openMs);
  }

  /** Opens for `ms` (another replica may have opened it for less than the full time). */
  open(ms: number): void {
    const wasClosed = this.#openUntil === 0;
    this.#openUntil = performance.now() + ms;
    if (wasClosed) {
      this.logger?.warn(
        { failures: this.#failures, openMs: ms },
        'upstream circuit open: no upstream calls for a while',
      );
    }
  }
}
