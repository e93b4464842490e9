/**
 * How often each upstream record is asked for (issue 15): the plan refreshes
 * the most popular records once per generation and serves the rest from
 * older generations, and it prefers first touches of records asked more than
 * once. Counts decay by half each UTC day, so yesterday's favourites give way
 * to today's within a day or two.
 *
 * One seam, two stores: in memory here, in Redis (every replica counts into
 * one sorted set) in redis-popularity.ts.
 */
import { performance } from 'node:perf_hooks';
import { utcDay } from '../time.js';

export interface Popularity {
  /** One request asked for these records (each counted once per request). */
  record(keys: Iterable<string>): void;
  /** Whether `key` is among the `size` most popular records. */
  isHead(key: string, size: number): Promise<boolean>;
  /** Decayed number of times `key` was asked, this process's unsent counts included. */
  count(key: string): Promise<number>;
  /** Sends what is pending (Redis) and stops the flush timer. */
  close(): Promise<void>;
}

/** Each UTC day, counts carried over are multiplied by this. */
export const DAILY_DECAY = 0.5;

/** How often the head's threshold is worked out again from the counts. */
const THRESHOLD_REFRESH_MS = 2_000;

export class MemoryPopularity implements Popularity {
  readonly #counts = new Map<string, number>();
  #day: string;
  #threshold: { size: number; score: number; at: number } | undefined;

  constructor(
    private readonly now: () => Date = () => new Date(),
    /** Records counted at most: the least asked are forgotten first when it is reached. */
    private readonly maxRecords = 200_000,
  ) {
    this.#day = utcDay(now());
  }

  record(keys: Iterable<string>): void {
    this.#decayIfNewDay();
    for (const key of keys) this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    if (this.#counts.size > this.maxRecords) this.#forgetLeastAsked();
  }

  async isHead(key: string, size: number): Promise<boolean> {
    this.#decayIfNewDay();
    const score = this.#counts.get(key);
    if (score === undefined || size <= 0) return false;
    if (this.#counts.size <= size) return true;
    return score >= this.#headThreshold(size);
  }

  async count(key: string): Promise<number> {
    this.#decayIfNewDay();
    return this.#counts.get(key) ?? 0;
  }

  async close(): Promise<void> {}

  /**
   * The score of the `size`-th most popular record. Sorting every record on
   * each question would cost more than the answer is worth; a threshold a
   * second or two old decides the same records, bar the ones at the edge.
   */
  #headThreshold(size: number): number {
    const cached = this.#threshold;
    if (
      cached !== undefined &&
      cached.size === size &&
      performance.now() - cached.at < THRESHOLD_REFRESH_MS
    )
      return cached.score;
    const scores = [...this.#counts.values()].sort((a, b) => b - a);
    const score = scores[size - 1] ?? 0;
    this.#threshold = { size, score, at: performance.now() };
    return score;
  }

  #decayIfNewDay(): void {
    const today = utcDay(this.now());
    if (today === this.#day) return;
    const days = Math.max(1, Math.round((Date.parse(today) - Date.parse(this.#day)) / 86_400_000));
    const factor = DAILY_DECAY ** days;
    for (const [key, score] of this.#counts) this.#counts.set(key, score * factor);
    this.#day = today;
    this.#threshold = undefined;
  }

  #forgetLeastAsked(): void {
    const keep = Math.floor(this.maxRecords * 0.9);
    const sorted = [...this.#counts.entries()].sort((a, b) => b[1] - a[1]);
    for (const [key] of sorted.slice(keep)) this.#counts.delete(key);
    this.#threshold = undefined;
  }
}
