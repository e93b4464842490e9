/**
 * Popularity shared by every replica: one Redis sorted set per UTC day
 * (`popularity:{all}:<day>`), member the record's key, score its decayed
 * count. Every day's set carries the same hash tag: the script that carries
 * yesterday's counts into today's touches both, and on a Redis Cluster a
 * script's keys must share a slot (the sets are one deployment-wide figure,
 * so one slot is what they need).
 * The first write of a day carries the previous day's set over at
 * DAILY_DECAY of its weight (one ZUNIONSTORE a day), so decay costs nothing
 * per view. Each
 * day's set expires two days after it ends (a duration measured on this
 * gateway's calendar: no instant is sent for Redis's clock to judge).
 *
 * Counts are added up in the process and sent every tenth of a second in one script:
 * a view must not wait for a Redis round trip to be counted. Beside the set,
 * a day's demand by hour (`demand:{all}:<day>`, a hash of 24 counts, kept
 * as long, so that yesterday's and the day before's are there all day): each
 * first touch asked (a record not held) is counted in the hour it was asked,
 * on this gateway's calendar, and sent with the counts.
 */
import { batched } from '../redis/batched.js';
import type { RedisClient } from '../redis/connection.js';
import { hashTag } from '../redis/hash-slot.js';
import { redisScript, type ScriptCall } from '../redis/script.js';
import { DAY_MS, msUntilEndOfDay, utcDay } from '../time.js';
import { DAILY_DECAY, hourOf, type Popularity, type RecentDemand } from './popularity.js';

// KEYS: today's set, yesterday's set. ARGV: how long today's set lives (ms, a duration), decay, then key/count pairs.
const ADD = `
if redis.call('EXISTS', KEYS[1]) == 0 and redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('ZUNIONSTORE', KEYS[1], 1, KEYS[2], 'WEIGHTS', ARGV[2])
end
for i = 3, #ARGV, 2 do redis.call('ZINCRBY', KEYS[1], ARGV[i + 1], ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 0
`;

// KEYS: today's set, yesterday's set. ARGV: the record's key, its count not sent yet.
// Until today's first counts are sent, yesterday's set ranks the same records in the same order.
// The other records asked at least as much as this one with its unsent views (scores compared
// as the exact doubles they are: %.17g round-trips); ZREVRANK would leave those views out.
const RANK = `
local set = KEYS[1]
if redis.call('ZCARD', set) == 0 then set = KEYS[2] end
local pending = tonumber(ARGV[2])
local score = redis.call('ZSCORE', set, ARGV[1])
if not score and pending == 0 then return redis.call('ZCARD', set) end
local count = (tonumber(score) or 0) + pending
local atLeast = redis.call('ZCOUNT', set, string.format('%.17g', count), '+inf')
if score and pending == 0 then atLeast = atLeast - 1 end
return atLeast
`;

/**
 * How long a replica keeps its counts before sending them. Until then the other replicas count a
 * record asked again there as asked once, and pace it behind the records asked again. A tenth of
 * a second costs one pipeline per replica that often, and keeps the counts current even on a
 * calendar that runs faster than the timers (docs/decisions/popularity-sent-every-100-ms.md).
 */
const FLUSH_EVERY_MS = 100;
/** Pending counts kept at most: past it, the batch is sent at once. */
const MAX_PENDING = 5_000;
const KEPT_DAYS_AFTER = 2;

export class RedisPopularity implements Popularity {
  #pending = new Map<string, number>();
  /** The UTC day the pending counts belong to (they are sent into that day's set). */
  #pendingDay: string;
  /** First touches asked, by day and hour (`<day> <hour>`), not sent yet. */
  #pendingHours = new Map<string, number>();
  #flushing: Promise<void> | undefined;
  readonly #timer: NodeJS.Timeout;
  readonly #add: ScriptCall;
  readonly #rank: ScriptCall;
  readonly #score: (key: string) => Promise<string | null>;

  constructor(
    private readonly redis: RedisClient,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.#pendingDay = utcDay(now());
    this.#add = redisScript(redis, 'popularityAdd', 2, ADD);
    this.#rank = redisScript(redis, 'popularityRank', 2, RANK);
    // The plan asks for each record a fan-out reads: one ZMSCORE for those asked together.
    this.#score = batched((keys) => redis.zmscore(this.#setOf(this.now()), ...keys));
    this.#timer = setInterval(() => void this.#flush(), FLUSH_EVERY_MS);
    this.#timer.unref();
  }

  record(keys: Iterable<string>, firstTouches = false): void {
    this.#carryPendingInto(this.now());
    let asked = 0;
    for (const key of keys) {
      this.#pending.set(key, (this.#pending.get(key) ?? 0) + 1);
      asked += 1;
    }
    if (firstTouches) {
      const now = this.now();
      const hour = `${utcDay(now)} ${hourOf(now)}`;
      this.#pendingHours.set(hour, (this.#pendingHours.get(hour) ?? 0) + asked);
    }
    if (this.#pending.size >= MAX_PENDING) void this.#flush();
  }

  async rank(key: string): Promise<number> {
    const now = this.now();
    // The view being answered is counted here and sent within a tenth of a second: it is part of
    // the rank the answer is judged by, so that a favourite read about once a day is not ranked
    // past the records kept at its first view of the day.
    await this.#flushing;
    this.#carryPendingInto(now);
    const pending = this.#pending.get(key) ?? 0;
    try {
      const rank = await this.#rank(this.#setOf(now), this.#yesterdayOf(now), key, pending);
      return Number(rank);
    } catch {
      // Without Redis nothing is refreshed anyway (the ledger cannot count); held answers stand.
      return Number.POSITIVE_INFINITY;
    }
  }

  async top(count: number): Promise<string[]> {
    if (count <= 0) return [];
    const now = this.now();
    try {
      const today = await this.redis.zrevrange(this.#setOf(now), 0, count - 1);
      if (today.length > 0) return today;
      // Until today's first counts are sent, yesterday's set has the same order.
      return await this.redis.zrevrange(this.#yesterdayOf(now), 0, count - 1);
    } catch {
      return [];
    }
  }

  async count(key: string): Promise<number> {
    // Counts on their way are in neither place until they land (a first flush loads its script
    // after a NOSCRIPT, behind a read sent meanwhile): a record's second view must see its first.
    await this.#flushing;
    this.#carryPendingInto(this.now());
    const pending = this.#pending.get(key) ?? 0;
    try {
      return Number((await this.#score(key)) ?? 0) + pending;
    } catch {
      return pending;
    }
  }

  async recentDemandByHour(): Promise<RecentDemand | undefined> {
    const daysAgo = (days: number) =>
      demandKey(utcDay(new Date(this.now().getTime() - days * DAY_MS)));
    try {
      // Both hashes share the sets' slot: one pipeline, on a cluster too.
      const replies = await this.redis.pipeline().hgetall(daysAgo(1)).hgetall(daysAgo(2)).exec();
      const [yesterday, dayBefore] = (replies ?? []).map(([error, hours]) => {
        if (error) throw error;
        return hourlyCounts(hours as Record<string, string>);
      });
      return yesterday && dayBefore ? { yesterday, dayBefore } : undefined;
    } catch {
      return undefined;
    }
  }

  async demandToday(): Promise<readonly number[] | undefined> {
    // Counts on their way are in neither place until they land.
    await this.#flushing;
    const today = utcDay(this.now());
    try {
      const sent = hourlyCounts(await this.redis.hgetall(demandKey(today)));
      return sent.map((count, hour) => count + (this.#pendingHours.get(`${today} ${hour}`) ?? 0));
    } catch {
      return undefined;
    }
  }

  async forget(key: string): Promise<void> {
    this.#pending.delete(key);
    const now = this.now();
    // Yesterday's set too: it ranks until today's first counts are sent, and today's starts from it.
    await this.redis
      .multi()
      .zrem(this.#setOf(now), key)
      .zrem(this.#yesterdayOf(now), key)
      .exec()
      // A count left behind by an outage is one view too many: the next not-found answer forgets it.
      .catch(() => undefined);
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#flush();
  }

  /** Demand by hour: one pipeline (the days' hashes share a slot), each hash living as long as the sets. */
  async #sendHours(hours: ReadonlyMap<string, number>, keptMs: number): Promise<void> {
    if (hours.size === 0) return;
    const pipeline = this.redis.pipeline();
    for (const [dayHour, asked] of hours) {
      const [day, hour] = dayHour.split(' ') as [string, string];
      pipeline.hincrby(demandKey(day), hour, asked).pexpire(demandKey(day), keptMs);
    }
    await pipeline.exec();
  }

  /**
   * Counts asked on a day that is over are sent into `now`'s day, carried over as the day's set
   * carries the day before's (DAILY_DECAY a day): the views of 23:59 are yesterday's, whenever
   * the batch leaves. Sent undecayed, a batch that left just after midnight (or after a moved
   * calendar's step) counted yesterday's views as today's, enough to make records read twice
   * the day before likely read today and refresh them all.
   */
  #carryPendingInto(now: Date): void {
    const today = utcDay(now);
    if (today === this.#pendingDay) return;
    const days = Math.round((Date.parse(today) - Date.parse(this.#pendingDay)) / DAY_MS);
    this.#pendingDay = today;
    if (days <= 0) return;
    const factor = DAILY_DECAY ** days;
    for (const [key, count] of this.#pending) this.#pending.set(key, count * factor);
  }

  #setOf(day: Date): string {
    return popularityKey(utcDay(day));
  }

  #yesterdayOf(now: Date): string {
    return this.#setOf(new Date(now.getTime() - DAY_MS));
  }

  #flush(): Promise<void> {
    if (this.#flushing !== undefined || this.#pending.size === 0)
      return this.#flushing ?? Promise.resolve();
    const now = this.now();
    this.#carryPendingInto(now);
    const batch = this.#pending;
    const hours = this.#pendingHours;
    this.#pending = new Map();
    this.#pendingHours = new Map();
    // Measured on this gateway's calendar and sent as a duration: Redis's clock may be days off it.
    const keptMs = msUntilEndOfDay(now) + KEPT_DAYS_AFTER * DAY_MS;
    const pairs = [...batch].flatMap(([key, count]) => [key, String(count)]);
    this.#flushing = Promise.all([
      this.#add(this.#setOf(now), this.#yesterdayOf(now), keptMs, DAILY_DECAY, ...pairs),
      this.#sendHours(hours, keptMs),
    ])
      .then(
        () => undefined,
        // Counts lost to an outage only make the plan a little less sure of the head.
        () => undefined,
      )
      .finally(() => (this.#flushing = undefined));
    return this.#flushing;
  }
}

/** A day's set (`day` as utcDay writes it): every day's in one slot, for the carry-over script. */
export const popularityKey = (day: string): string => `popularity:${hashTag('all')}:${day}`;

/** A day's demand hash (`HGETALL`) as its 24 counts by hour, an hour never asked as none. */
const hourlyCounts = (hash: Record<string, string>): number[] =>
  Array.from({ length: 24 }, (_, hour) => Number(hash[String(hour)] ?? 0));

/** A day's demand by hour (`day` as utcDay writes it): in the sets' slot. */
export const demandKey = (day: string): string => `demand:${hashTag('all')}:${day}`;
