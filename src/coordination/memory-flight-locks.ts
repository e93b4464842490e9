/**
 * Single flight for a gateway without Redis. There is no other process to
 * share a fetch with, and the in-flight map of CachedUpstream already joins
 * this process's own concurrent reads, so every acquire succeeds at once and
 * nothing is ever held: no read waits on a lease that nobody else can take.
 */
import { type FlightLease, type FlightLocks, NO_LEASE } from './flight-locks.js';

/** One process alone: it always fetches itself. */
export class LocalFlightLocks implements FlightLocks {
  async acquire(): Promise<FlightLease> {
    return NO_LEASE;
  }

  async isHeld(): Promise<boolean> {
    return false;
  }
}
