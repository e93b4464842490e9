/**
 * The popularity counts of a worker of one machine without Redis: the
 * primary keeps one memory count for the machine, so every worker's plan
 * ranks records by the views of all of them. A view is a note (no reply
 * awaited), sent with the others of the same turn of the event loop; a
 * question sends the notes before it, so its answer counts this worker's
 * views so far, the one being answered included.
 */
import type { PrimaryLink } from '../machine/primary-link.js';
import type { Popularity, RecentDemand } from './popularity.js';

export class MachinePopularity implements Popularity {
  constructor(private readonly primary: PrimaryLink) {}

  record(keys: Iterable<string>, firstTouches = false): void {
    this.primary.note('popularity', 'record', [...keys], firstTouches);
  }

  rank(key: string): Promise<number> {
    // Infinity does not survive JSON: the primary's "cannot tell" arrives as null.
    return this.primary
      .call<number | null>('popularity', 'rank', key)
      .then((rank) => rank ?? Number.POSITIVE_INFINITY);
  }

  top(count: number): Promise<string[]> {
    return this.primary.call<string[]>('popularity', 'top', count);
  }

  count(key: string): Promise<number> {
    return this.primary.call<number>('popularity', 'count', key);
  }

  async recentDemandByHour(): Promise<RecentDemand | undefined> {
    return (
      (await this.primary.call<RecentDemand | null>('popularity', 'recentDemandByHour')) ??
      undefined
    );
  }

  async demandToday(): Promise<readonly number[] | undefined> {
    return (await this.primary.call<number[] | null>('popularity', 'demandToday')) ?? undefined;
  }

  async forget(key: string): Promise<void> {
    this.primary.note('popularity', 'forget', key);
  }

  /** The counts are the primary's, and it closes them; the notes on their way leave on their own. */
  async close(): Promise<void> {}
}
