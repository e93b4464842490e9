/**
 * A circuit breaker for the upstream: after `failureThreshold` transient
 * failures in a row (5xx, timeouts, refused connections) the circuit opens
 * and no call leaves for `openMs`: no budget is spent on an upstream that is
 * down, stale answers stand in, and cold reads fail at once instead of
 * waiting out their deadline. Then one probe call is let through
 * (half-open); its success closes the circuit, its failure opens it again.
 *
 * With Redis the open state is shared: a replica that opens the circuit
 * writes a key with the open time as its TTL, and every replica checks it
 * before a call, so an outage seen by one costs the others nothing.
 * Durations come from performance.now() and Redis TTLs, never the wall clock.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { joined } from '../redis/batched.js';
import { UpstreamError } from '../upstream/errors.js';

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitOptions {
  readonly failureThreshold: number;
  readonly openMs: number;
}

export const DEFAULT_CIRCUIT: CircuitOptions = { failureThreshold: 5, openMs: 30_000 };

export interface CircuitBreaker {
  /** Throws UPSTREAM_ERROR (reason `circuit-open`) when no call may leave now. */
  admit(): Promise<void>;
  /** A call that left got an answer the upstream meant (any status but a transient failure). */
  succeeded(): void;
  /** A call that left failed transiently. */
  failed(): void;
  /** This process's view, for /ready and metrics. */
  readonly state: CircuitState;
}

export function circuitOpenError(): UpstreamError {
  return new UpstreamError(
    'UPSTREAM_ERROR',
    'The upstream API is failing; calls are paused for a moment',
    {
      reason: 'circuit-open',
    },
  );
}

/** Whether a failure says the upstream itself is in trouble (not the question, not our own queue). */
export function isUpstreamFailure(error: unknown): boolean {
  if (!(error instanceof UpstreamError) || error.code !== 'UPSTREAM_ERROR') return false;
  if (
    error.reason === 'overloaded' ||
    error.reason === 'circuit-open' ||
    error.reason === 'uncountable'
  )
    return false;
  return error.status === undefined || error.status >= 500;
}

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

const OPEN_KEY = 'circuit:open';

/** The local breaker, plus an open state shared by every replica through Redis. */
export class SharedCircuitBreaker implements CircuitBreaker {
  /** Whether another replica opened it, asked once for the calls that leave together. */
  readonly #openTtl: () => Promise<number>;

  constructor(
    private readonly local: LocalCircuitBreaker,
    private readonly redis: Redis,
    private readonly options: CircuitOptions,
  ) {
    this.#openTtl = joined(() => redis.pttl(OPEN_KEY));
  }

  get state(): CircuitState {
    return this.local.state;
  }

  async admit(): Promise<void> {
    if (this.local.state === 'closed') {
      // Another replica may have opened it; an unreachable Redis says nothing either way.
      const ttl = await this.#openTtl().catch(() => -2);
      if (ttl > 0) this.local.open(ttl);
    }
    return this.local.admit();
  }

  succeeded(): void {
    const wasOpen = this.local.state !== 'closed';
    this.local.succeeded();
    if (wasOpen) this.redis.del(OPEN_KEY).catch(() => undefined);
  }

  failed(): void {
    const wasOpen = this.local.state !== 'closed';
    this.local.failed();
    if (!wasOpen && (this.local.state as CircuitState) === 'open') {
      this.redis.set(OPEN_KEY, '1', 'PX', this.options.openMs).catch(() => undefined);
    }
  }
}
