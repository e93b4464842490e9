/**
 * Single flight across processes through a lease per resource: the first to
 * take it fetches; the holder renews it while it fetches, so a slow upstream
 * keeps it, and a holder that dies loses it within one lease, when a waiting
 * process takes over. Releasing names the holder's token, so a late holder
 * never frees a lease someone else took over. Where the leases live is a
 * `LeaseStore`: Redis for replicas (redis-flight-locks.ts), the primary for
 * the workers of one machine (machine-flight-locks.ts).
 *
 * When the store cannot answer, the process fetches itself: its budget
 * ledger (which refuses calls it cannot count) is what guards the day then.
 */
import { randomUUID } from 'node:crypto';
import { type FlightLease, type FlightLocks, NO_LEASE } from './flight-locks.js';

export const DEFAULT_LEASE_MS = 3_000;

/** The leases themselves; each method may reject when the store cannot answer. */
export interface LeaseStore {
  /** Takes `key` for `token` for `leaseMs`, unless someone holds it. */
  take(key: string, token: string, leaseMs: number): Promise<boolean>;
  /** Holds `key` for another `leaseMs`, while `token` still holds it. */
  renew(key: string, token: string, leaseMs: number): Promise<void>;
  /** Frees `key` if `token` still holds it. */
  release(key: string, token: string): Promise<void>;
  isHeld(key: string): Promise<boolean>;
}

export class LeasedFlightLocks implements FlightLocks {
  constructor(
    private readonly leases: LeaseStore,
    private readonly leaseMs = DEFAULT_LEASE_MS,
  ) {}

  async acquire(key: string): Promise<FlightLease | undefined> {
    const token = randomUUID();
    try {
      if (!(await this.leases.take(key, token, this.leaseMs))) return undefined;
    } catch {
      return NO_LEASE;
    }
    const renewal = setInterval(() => {
      this.leases.renew(key, token, this.leaseMs).catch(() => undefined);
    }, this.leaseMs / 3);
    renewal.unref();
    return {
      release: async () => {
        clearInterval(renewal);
        await this.leases.release(key, token).catch(() => undefined);
      },
    };
  }

  async isHeld(key: string): Promise<boolean> {
    try {
      return await this.leases.isHeld(key);
    } catch {
      return false;
    }
  }
}
