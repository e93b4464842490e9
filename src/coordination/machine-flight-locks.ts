/**
 * Single flight across the workers of one machine without Redis: the leases
 * (leased-flight-locks.ts) are kept by the primary in a `MemoryLeases`
 * table, so one worker fetches a resource and the others wait for its
 * answer in the machine's cache, as replicas do through Redis.
 */
import type { PrimaryLink } from '../machine/primary-link.js';
import { DEFAULT_LEASE_MS, LeasedFlightLocks, type LeaseStore } from './leased-flight-locks.js';

/** Leases held at which the lapsed ones are swept out: far more than reads under way at once. */
const SWEEP_AT = 10_000;

/** The lease table itself, in the primary: expiries on performance.now(), immune to clock steps. */
export class MemoryLeases implements LeaseStore {
  readonly #held = new Map<string, { token: string; until: number }>();

  async take(key: string, token: string, leaseMs: number): Promise<boolean> {
    if (this.#held.size >= SWEEP_AT) this.#sweep();
    if (this.#holder(key) !== undefined) return false;
    this.#held.set(key, { token, until: performance.now() + leaseMs });
    return true;
  }

  async renew(key: string, token: string, leaseMs: number): Promise<void> {
    if (this.#holder(key) === token)
      this.#held.set(key, { token, until: performance.now() + leaseMs });
  }

  async release(key: string, token: string): Promise<void> {
    if (this.#holder(key) === token) this.#held.delete(key);
  }

  async isHeld(key: string): Promise<boolean> {
    return this.#holder(key) !== undefined;
  }

  /** Leases whose holder died and whose resource nobody asked for again. */
  #sweep(): void {
    const now = performance.now();
    for (const [key, lease] of this.#held) if (lease.until <= now) this.#held.delete(key);
  }

  /** The token holding `key` now; a lapsed lease is dropped when it is next looked at. */
  #holder(key: string): string | undefined {
    const lease = this.#held.get(key);
    if (lease === undefined) return undefined;
    if (lease.until > performance.now()) return lease.token;
    this.#held.delete(key);
    return undefined;
  }
}

/** The primary's leases, asked over the worker's link. */
class PrimaryLeases implements LeaseStore {
  constructor(private readonly primary: PrimaryLink) {}

  take(key: string, token: string, leaseMs: number): Promise<boolean> {
    return this.primary.call<boolean>('leases', 'take', key, token, leaseMs);
  }

  async renew(key: string, token: string, leaseMs: number): Promise<void> {
    this.primary.note('leases', 'renew', key, token, leaseMs);
  }

  async release(key: string, token: string): Promise<void> {
    this.primary.note('leases', 'release', key, token);
  }

  isHeld(key: string): Promise<boolean> {
    return this.primary.call<boolean>('leases', 'isHeld', key);
  }
}

export class MachineFlightLocks extends LeasedFlightLocks {
  constructor(primary: PrimaryLink, leaseMs = DEFAULT_LEASE_MS) {
    super(new PrimaryLeases(primary), leaseMs);
  }
}
