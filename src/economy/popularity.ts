/**
 * How often each upstream record is asked for (issue 15): the plan refreshes
 * the most popular records once per generation and serves the rest from
 * older generations, and it prefers first touches of records asked more than
 * once. Counts carried into a new UTC day keep 70 % of their weight: a record
 * popular for days is not pushed out of the head by one quiet day, while a
 * new favourite overtakes within a day or two (at half weight, the run's
 * most viewed artists fell out of the head after one quiet day in
 * `npm run simulate`).
 *
 * One seam, two stores: in memory here, in Redis (every replica counts into
 * one sorted set) in redis-popularity.ts.
 */
import { performance } from 'node:perf_hooks';
import { DAY_MS, utcDay } from '../time.js';

export interface Popularity {
  /** One request asked for these records (each counted once per request). */
  record(keys: Iterable<string>): void;
  /**
   * How many records are asked for more than `key` (0: the most popular).
   * A record not counted yet ranks after every counted one; Infinity when
   * the store cannot tell.
   */
  rank(key: string): Promise<number>;
  /** The keys of the `count` most asked records, most asked first. */
  top(count: number): Promise<string[]>;
  /** Decayed number of times `key` was asked, this process's unsent counts included. */
  count(key: string): Promise<number>;
  /** Drops every count of `key`: the upstream does not have it (a not-found answer is never popular). */
  forget(key: string): Promise<void>;
  /** Sends what is pending (Redis) and stops the flush timer. */
  close(): Promise<void>;
}

/** Each UTC day, counts carried over are multiplied by this. */
export const DAILY_DECAY = 0.7;

/** How often the ranking is worked out again from the counts. */
const RANKING_REFRESH_MS = 2_000;

export class MemoryPopularity implements Popularity {
  readonly #counts = new Map<string, number>();
  #day: string;
  /** Every count, most asked first, as of `at`: ranks are read from it. */
  #ranking: { scores: number[]; at: number } | undefined;

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

  async rank(key: string): Promise<number> {
    this.#decayIfNewDay();
    const score = this.#counts.get(key);
    if (score === undefined) return this.#counts.size;
    const scores = this.#scores();
    // Binary search for the first score not above this one's: the records before it are asked more.
    let low = 0;
    let high = scores.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((scores[middle] as number) > score) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  async top(count: number): Promise<string[]> {
    this.#decayIfNewDay();
    return [...this.#counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key]) => key);
  }

  async count(key: string): Promise<number> {
    this.#decayIfNewDay();
    return this.#counts.get(key) ?? 0;
  }

  async forget(key: string): Promise<void> {
    if (this.#counts.delete(key)) this.#ranking = undefined;
  }

  async close(): Promise<void> {}

  /**
   * Every score, highest first. Sorting every record on each question would
   * cost more than the answer is worth; a ranking a second or two old places
   * the same records, bar the ones at the edge.
   */
  #scores(): number[] {
    const cached = this.#ranking;
    if (cached !== undefined && performance.now() - cached.at < RANKING_REFRESH_MS)
      return cached.scores;
    const scores = [...this.#counts.values()].sort((a, b) => b - a);
    this.#ranking = { scores, at: performance.now() };
    return scores;
  }

  #decayIfNewDay(): void {
    const today = utcDay(this.now());
    if (today === this.#day) return;
    const days = Math.max(1, Math.round((Date.parse(today) - Date.parse(this.#day)) / DAY_MS));
    const factor = DAILY_DECAY ** days;
    for (const [key, score] of this.#counts) this.#counts.set(key, score * factor);
    this.#day = today;
    this.#ranking = undefined;
  }

  #forgetLeastAsked(): void {
    const keep = Math.floor(this.maxRecords * 0.9);
    const sorted = [...this.#counts.entries()].sort((a, b) => b[1] - a[1]);
    for (const [key] of sorted.slice(keep)) this.#counts.delete(key);
    this.#ranking = undefined;
  }
}
