/**
 * The popularity counts of a worker of one machine without Redis: the
 * primary keeps one memory count for the machine, so every worker's plan
 * ranks records by the views of all of them. Views are counted here and sent
 * together every little while, as the Redis counts are: a view is on every
 * request's path, hits included, and a message per turn of the event loop
 * would cost the primary more than the counting. A question sends what is
 * pending first, so its answer counts this worker's views so far, the one
 * being answered included.
 */
import type { PrimaryLink } from '../machine/primary-link.js';
import type { Popularity, RecentDemand } from './popularity.js';

/** How long views wait to be sent with the ones after them. */
const SEND_EVERY_MS = 100;

export class MachinePopularity implements Popularity {
  #pending = new Map<string, number>();
  #firstTouches = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly primary: PrimaryLink) {}

  record(keys: Iterable<string>, firstTouches = false): void {
    let asked = 0;
    for (const key of keys) {
      this.#pending.set(key, (this.#pending.get(key) ?? 0) + 1);
      asked += 1;
    }
    if (firstTouches) this.#firstTouches += asked;
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.#send(), SEND_EVERY_MS);
      this.#timer.unref();
    }
  }

  rank(key: string): Promise<number> {
    this.#send();
    // Infinity does not survive JSON: the primary's "cannot tell" arrives as null.
    return this.primary
      .call<number | null>('popularity', 'rank', key)
      .then((rank) => rank ?? Number.POSITIVE_INFINITY);
  }

  top(count: number): Promise<string[]> {
    this.#send();
    return this.primary.call<string[]>('popularity', 'top', count);
  }

  count(key: string): Promise<number> {
    this.#send();
    return this.primary.call<number>('popularity', 'count', key);
  }

  async recentDemandByHour(): Promise<RecentDemand | undefined> {
    return (
      (await this.primary.call<RecentDemand | null>('popularity', 'recentDemandByHour')) ??
      undefined
    );
  }

  async demandToday(): Promise<readonly number[] | undefined> {
    this.#send();
    return (await this.primary.call<number[] | null>('popularity', 'demandToday')) ?? undefined;
  }

  async forget(key: string): Promise<void> {
    this.#pending.delete(key);
    this.primary.note('popularity', 'forget', key);
  }

  /** The counts are the primary's, and it closes them; what is pending here is sent. */
  async close(): Promise<void> {
    this.#send();
  }

  #send(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.size === 0 && this.#firstTouches === 0) return;
    this.primary.note('popularity', 'recordCounts', [...this.#pending], this.#firstTouches);
    this.#pending = new Map();
    this.#firstTouches = 0;
  }
}
