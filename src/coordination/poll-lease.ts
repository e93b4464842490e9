/**
 * Which replica polls: the one that takes the lease, `SET refresh-poll <token>
 * NX PX <interval>`. Every replica tries a few times per interval, so the poll
 * runs once per interval (give or take one try) whoever is alive; a replica
 * that dies simply stops taking it. Without Redis the one process always polls.
 * One seam, two leases side by side: memory-poll-lease.ts for a process alone,
 * redis-poll-lease.ts for replicas.
 */

/**
 * Which polls a lease spaces: the steady ones, or the dense ones while the upstream's refresh is
 * expected (freshness/refresh-window.ts). Apart, so that a steady lease taken just before the
 * window opens does not hold the dense polls back for a whole interval.
 */
export type PollCadence = 'steady' | 'dense';

export interface PollLease {
  /** True when this process should poll now; false while another poll of this interval ran (or Redis is away). */
  take(intervalMs: number, cadence?: PollCadence): Promise<boolean>;
}

export const POLL_LEASE_KEY = 'refresh-poll';

/** The lease's key for polls of `cadence`. */
export function pollLeaseKey(cadence: PollCadence): string {
  return cadence === 'steady' ? POLL_LEASE_KEY : `${POLL_LEASE_KEY}:dense`;
}
