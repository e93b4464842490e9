/**
 * Which replica polls: the one that takes the lease, `SET refresh-poll <token>
 * NX PX <interval>`. Every replica tries a few times per interval, so the poll
 * runs once per interval (give or take one try) whoever is alive; a replica
 * that dies simply stops taking it. Without Redis the one process always polls.
 * One seam, two leases side by side: memory-poll-lease.ts for a process alone,
 * redis-poll-lease.ts for replicas.
 */

export interface PollLease {
  /** True when this process should poll now; false while another poll of this interval ran (or Redis is away). */
  take(intervalMs: number): Promise<boolean>;
}

export const POLL_LEASE_KEY = 'refresh-poll';
