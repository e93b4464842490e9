/**
 * The poll lease of a worker of one machine without Redis: the primary keeps
 * the one lease (memory-poll-lease.ts), so the machine polls once per
 * interval whichever worker asks first.
 */
import type { PrimaryLink } from '../machine/primary-link.js';
import type { PollCadence, PollLease } from './poll-lease.js';

export class MachinePollLease implements PollLease {
  constructor(private readonly primary: PrimaryLink) {}

  take(intervalMs: number, cadence: PollCadence = 'steady'): Promise<boolean> {
    return this.primary.call<boolean>('pollLease', 'take', intervalMs, cadence).catch(() => false);
  }
}
