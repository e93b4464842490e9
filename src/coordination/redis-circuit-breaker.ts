/**
 * The circuit's open state shared by every replica: a replica that opens its
 * circuit writes `circuit:open` with the open time as its TTL, and every
 * replica looks for it before a call, so an outage seen by one costs the
 * others nothing (no budget, no waiting out deadlines). How long it stays
 * open is the key's TTL, a duration Redis counts, never an instant of one
 * replica's calendar. An unreachable Redis says nothing either way: each
 * replica then goes by what it has seen itself.
 */
import { joined } from '../redis/batched.js';
import type { RedisClient } from '../redis/connection.js';
import type { CircuitBreaker, CircuitOptions, CircuitState } from './circuit-breaker.js';
import type { LocalCircuitBreaker } from './local-circuit-breaker.js';

const OPEN_KEY = 'circuit:open';

/** The local breaker, plus an open state shared by every replica through Redis. */
export class SharedCircuitBreaker implements CircuitBreaker {
  /** Whether another replica opened it, asked once for the calls that leave together. */
  readonly #openTtl: () => Promise<number>;

  constructor(
    private readonly local: LocalCircuitBreaker,
    private readonly redis: RedisClient,
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
