/**
 * The counts of a gateway without Redis, in a map of this process. Counting a
 * view is on every request's path, so it is a map update and nothing more;
 * the day's decay is applied lazily, by the first call of a new UTC day, and
 * ranks are read from a sorted copy refreshed every couple of seconds
 * rather than sorting every record per question. The map is bounded: a tail
 * of records asked once cannot grow it without end. The first touches asked
 * by hour are kept for today and the two days before: 72 numbers.
 */
import { performance } from 'node:perf_hooks';
import { utcDayNumber } from '../time.js';
import { DAILY_DECAY, hourOf, type Popularity, type RecentDemand } from './popularity.js';

const HOURS = 24;
const noDemand = (): number[] => new Array<number>(HOURS).fill(0);

/** How often the ranking is worked out again from the counts. */
const RANKING_REFRESH_MS = 2_000;

export class MemoryPopularity implements Popularity {
  readonly #counts = new Map<string, number>();
  /** The UTC day counted, as utcDayNumber gives it: compared on every record, so no string. */
  #day: number;
  /** Every count, most asked first, as of `at`: ranks are read from it. */
  #ranking: { scores: number[]; at: number } | undefined;
  /** First touches asked by UTC hour, today and the two days before. */
  #todayByHour = noDemand();
  #yesterdayByHour = noDemand();
  #dayBeforeByHour = noDemand();

  constructor(
    private readonly now: () => Date = () => new Date(),
    /** Records counted at most: the least asked are forgotten first when it is reached. */
    private readonly maxRecords = 200_000,
  ) {
    this.#day = utcDayNumber(now().getTime());
  }

  record(keys: Iterable<string>, firstTouches = false): void {
    this.#decayIfNewDay();
    let asked = 0;
    for (const key of keys) {
      this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
      asked += 1;
    }
    if (firstTouches) this.#todayByHour[hourOf(this.now())] += asked;
    if (this.#counts.size > this.maxRecords) this.#forgetLeastAsked();
  }

  /**
   * Views another process counted and sent together (a worker's, machine-popularity.ts): each
   * key asked `times` times, `firstTouches` of all of them first touches.
   */
  recordCounts(counts: readonly (readonly [string, number])[], firstTouches: number): void {
    this.#decayIfNewDay();
    for (const [key, times] of counts) this.#counts.set(key, (this.#counts.get(key) ?? 0) + times);
    this.#todayByHour[hourOf(this.now())] += firstTouches;
    if (this.#counts.size > this.maxRecords) this.#forgetLeastAsked();
  }

  async rank(key: string): Promise<number> {
    this.#decayIfNewDay();
    const score = this.#counts.get(key);
    if (score === undefined) return this.#counts.size;
    const scores = this.#scores();
    // Binary search for the first score below this one's: the records before it, this one
    // among them, are asked at least as much.
    let low = 0;
    let high = scores.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((scores[middle] as number) >= score) low = middle + 1;
      else high = middle;
    }
    return Math.max(0, low - 1);
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

  async recentDemandByHour(): Promise<RecentDemand> {
    this.#decayIfNewDay();
    return { yesterday: [...this.#yesterdayByHour], dayBefore: [...this.#dayBeforeByHour] };
  }

  async demandToday(): Promise<readonly number[]> {
    this.#decayIfNewDay();
    return [...this.#todayByHour];
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
    const today = utcDayNumber(this.now().getTime());
    if (today === this.#day) return;
    const days = Math.max(1, today - this.#day);
    const factor = DAILY_DECAY ** days;
    for (const [key, score] of this.#counts) this.#counts.set(key, score * factor);
    this.#dayBeforeByHour =
      days === 1 ? this.#yesterdayByHour : days === 2 ? this.#todayByHour : noDemand();
    this.#yesterdayByHour = days === 1 ? this.#todayByHour : noDemand();
    this.#todayByHour = noDemand();
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
