/**
 * How often each upstream record is asked for: the plan refreshes the most
 * popular records once per generation and serves the rest from older
 * generations, and it prefers first touches of records asked more than
 * once. Counts carried into a new UTC day keep 80 % of their weight: a record
 * popular for days is not pushed out of the kept records by one quiet day,
 * while a new favourite overtakes within a day or two; the kept records must
 * hold the audience's favourites as all their views so far name them
 * (docs/decisions/counts-carried-at-80-percent.md).
 *
 * One seam, two stores side by side: in memory (memory-popularity.ts), in
 * Redis (every replica counts into one sorted set) in redis-popularity.ts.
 */
export interface Popularity {
  /**
   * One request asked for these records (each counted once per request). `firstTouches`: the
   * deployment does not hold them, so each is a first touch asked for, served or refused: the
   * demand the day's pacing follows, counted by UTC hour.
   */
  record(keys: Iterable<string>, firstTouches?: boolean): void;
  /**
   * How many other records are asked for at least as much as `key` (0: the most popular), its
   * views this process has not sent yet included (the view being answered is one). Records
   * asked as often each rank after the others: a tier's edge that falls among many records
   * asked once or twice keeps none of them rather than all, which would refresh records their
   * readers seldom come back to (docs/decisions/rank-counts-the-view-being-answered.md). A
   * record not counted yet ranks after every counted one; Infinity when the store cannot tell.
   */
  rank(key: string): Promise<number>;
  /** The keys of the `count` most asked records, most asked first. */
  top(count: number): Promise<string[]>;
  /** Decayed number of times `key` was asked, this process's unsent counts included. */
  count(key: string): Promise<number>;
  /**
   * First touches asked yesterday and the day before (UTC) by hour, 24 counts each: when in the
   * day the demand for records not held comes, and how alike one day is to the next, for the
   * day's pacing (day-shape.ts). All zeros: none was asked that day; undefined: unknown.
   */
  recentDemandByHour(): Promise<RecentDemand | undefined>;
  /**
   * First touches asked today (UTC) so far by hour, 24 counts, those this process has not sent
   * yet included: how today's demand compares with yesterday's so far (demand-forecast.ts).
   * Undefined: unknown.
   */
  demandToday(): Promise<readonly number[] | undefined>;
  /** Drops every count of `key`: the upstream does not have it (a not-found answer is never popular). */
  forget(key: string): Promise<void>;
  /** Sends what is pending (Redis) and stops the flush timer. */
  close(): Promise<void>;
}

/** First touches asked by UTC hour on the two days before today. */
export interface RecentDemand {
  readonly yesterday: readonly number[];
  readonly dayBefore: readonly number[];
}

/**
 * A popularity count at which a record is likely read today: counts carry 80 % into each new day
 * (DAILY_DECAY), so a record read v times a day settles near 5 v, 3 at 0.6 a day. It is reached
 * within two days at 1.7 reads a day, so that a new deployment's favourites count as likely
 * read before they fall two refreshes behind (docs/decisions/rank-counts-the-view-being-answered.md).
 */
export const LIKELY_READ_TODAY = 3;

/** Each UTC day, counts carried over are multiplied by this. */
export const DAILY_DECAY = 0.8;

/** The UTC hour (0-23) of `now`: the bucket its demand is counted in. */
export const hourOf = (now: Date): number => now.getUTCHours();
