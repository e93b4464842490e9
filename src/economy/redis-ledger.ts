/**
 * The budget ledger shared by every replica: one Redis hash per key and UTC
 * day (`budget:{<key hash>}:<day>`, fields `used` and `exhausted`), one counter
 * per client and day for fairness, one `pause:{<key hash>}` key while the
 * upstream asked for a pause. All of it expires on its own: the day's keys an
 * hour after midnight UTC, a pause with its Retry-After.
 *
 * Reserving is one Lua script, so checking and counting are atomic across
 * replicas. Its keys are one API key's, and carry the key's hash as their
 * hash tag: on a Redis Cluster they share one slot (a script may touch one
 * slot only), and each key's day lives in a slot of its own, so the keys of
 * a pass-through deployment spread over the cluster.
 *
 * A call leaves only once its count is recorded where it survives: while
 * Redis cannot answer, no call is made at all (a call that cannot be
 * counted could be the one that overruns the day), and with `durability`
 * (a cluster's default) the count must also be acknowledged by a replica,
 * so that a failover cannot take it away (redis/acknowledged.ts).
 */
import { LRUCache } from 'lru-cache';
import { runAcknowledged } from '../redis/acknowledged.js';
import { joinedByKey } from '../redis/batched.js';
import type { RedisClient } from '../redis/connection.js';
import { type Durability, NO_REPLICA_WAIT } from '../redis/durability.js';
import { hashTag } from '../redis/hash-slot.js';
import { isCluster } from '../redis/per-slot.js';
import { redisScript, type ScriptCall } from '../redis/script.js';
import { msUntilEndOfDay, utcDay } from '../time.js';
import type { UpstreamError } from '../upstream/errors.js';
import {
  budgetSpent,
  callNotRecorded,
  clientShareSpent,
  keyPaused,
  rateLimitKindOf,
} from '../upstream/rate-limits.js';
import {
  type BudgetLedger,
  type BudgetOptions,
  type BudgetUsage,
  clientCap,
  LocalStops,
  PlanRefusal,
  type Returned,
  resetsAtOf,
  type Spender,
} from './ledger.js';
import type { DaySpending } from './spending-plan.js';

/** Kept past midnight UTC so that a replica whose clock lags a little still finds the day it counts in. */
const DAY_KEY_GRACE_MS = 60 * 60 * 1000;

// KEYS: day hash, pause key, client counter, client first-touch counter. ARGV: daily limit, how long the
// day's keys live (ms, a duration: Redis's clock is never asked to agree with the gateway's calendar), client cap
// (0: none), the count this replica last saw (a Redis restarted without its data learns the day back from its
// replicas), the plan's ceiling (spending-plan.ts): total (-1: none), the counter the call adds to ('' none),
// its limit, and the client's first-touch limit (-1: none); then the calls taken at once, all or none.
// The day's `used` and counters only grow (so that a replica's last count is a sound floor); calls given back
// are counted apart, in `returned` and `returned:<counter>`, and what is spent is the one less the other.
// Answers {used, 0} when reserved (the day's `used` before any return: a floor for next time), or {reason, detail}: -1 day spent, -2 paused (detail: ms left),
// -3 client share spent, -4 refused by the plan, -5 the client's share of first touches taken (detail: its count).
const RESERVE = `
if redis.call('EXISTS', KEYS[2]) == 1 then return {-2, redis.call('PTTL', KEYS[2])} end
local calls = tonumber(ARGV[9])
local grossUsed = math.max(tonumber(redis.call('HGET', KEYS[1], 'used') or '0'), tonumber(ARGV[4]))
local used = grossUsed - tonumber(redis.call('HGET', KEYS[1], 'returned') or '0')
local limit = tonumber(ARGV[1])
if redis.call('HGET', KEYS[1], 'exhausted') == '1' or used >= limit then return {-1, used} end
if used + calls > limit then return {-4, used} end
local total = tonumber(ARGV[5])
if total >= 0 and used + calls > total then return {-4, used} end
if ARGV[6] ~= '' then
  local counted = tonumber(redis.call('HGET', KEYS[1], ARGV[6]) or '0') - tonumber(redis.call('HGET', KEYS[1], 'returned:' .. ARGV[6]) or '0')
  if counted + calls > tonumber(ARGV[7]) then return {-4, used} end
end
local pacedCap = tonumber(ARGV[8])
if pacedCap >= 0 then
  local paced = tonumber(redis.call('GET', KEYS[4]) or '0')
  if paced + calls > pacedCap then return {-5, paced} end
end
local cap = tonumber(ARGV[3])
if cap > 0 then
  local mine = tonumber(redis.call('GET', KEYS[3]) or '0')
  if mine >= cap then return {-3, mine} end
  if mine + calls > cap then return {-4, used} end
  redis.call('INCRBY', KEYS[3], calls)
  redis.call('PEXPIRE', KEYS[3], ARGV[2])
end
if pacedCap >= 0 then
  redis.call('INCRBY', KEYS[4], calls)
  redis.call('PEXPIRE', KEYS[4], ARGV[2])
end
redis.call('HSET', KEYS[1], 'used', grossUsed + calls)
if ARGV[6] ~= '' then redis.call('HINCRBY', KEYS[1], ARGV[6], calls) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {grossUsed + calls, 0}
`;

// KEYS: day hash, client counter, client first-touch counter. ARGV: calls given back, the counter they were
// taken under ('' none), whether the client counters count them ('1'), how long the day's keys live (ms).
// Never gives back more than was taken.
const RELEASE = `
local calls = tonumber(ARGV[1])
local function giveBack(field)
  local taken = tonumber(redis.call('HGET', KEYS[1], field) or '0')
  local returned = tonumber(redis.call('HGET', KEYS[1], 'returned' .. (field == 'used' and '' or ':' .. field)) or '0')
  return math.max(0, math.min(calls, taken - returned))
end
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local back = giveBack('used')
redis.call('HINCRBY', KEYS[1], 'returned', back)
if ARGV[2] ~= '' then redis.call('HINCRBY', KEYS[1], 'returned:' .. ARGV[2], giveBack(ARGV[2])) end
if ARGV[3] == '1' then
  for i = 2, 3 do
    local mine = tonumber(redis.call('GET', KEYS[i]) or '0')
    if mine > 0 then redis.call('DECRBY', KEYS[i], math.min(mine, calls)) end
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return back
`;

export interface RedisLedgerOptions extends BudgetOptions {
  /** Replicas that must acknowledge a reservation before its call leaves; default none. */
  readonly durability?: Durability;
}

/** A reservation the primary made but no replica acknowledged in time: a failover could lose it. */
class Unacknowledged extends Error {
  override readonly name = 'Unacknowledged';
}

export class RedisBudgetLedger implements BudgetLedger {
  readonly #now: () => Date;
  readonly #stops: LocalStops;
  readonly #durability: Durability;
  /** Last figures read or written: answered by `usage` while Redis is down, and a floor for the shared count. */
  readonly #lastKnown = new LRUCache<string, { day: string; used: number }>({ max: 10_000 });
  /** Keys whose day was looked up under 0.2's untagged name in this process (see #legacyFloor). */
  readonly #legacyChecked = new LRUCache<string, true>({ max: 10_000 });

  readonly #reserve: ScriptCall;
  readonly #release: ScriptCall;
  /** A key's day figures, read once for the reservations a fan-out makes together (the plan weighs each). */
  readonly #figures: (dayKey: string) => Promise<(string | null)[]>;

  constructor(
    private readonly redis: RedisClient,
    private readonly options: RedisLedgerOptions,
  ) {
    this.#now = options.now ?? (() => new Date());
    this.#stops = new LocalStops(this.#now);
    this.#durability = options.durability ?? NO_REPLICA_WAIT;
    this.#reserve = redisScript(redis, RESERVE_SCRIPT, 4, RESERVE);
    this.#release = redisScript(redis, 'budgetRelease', 3, RELEASE);
    this.#figures = joinedByKey((key) => redis.hmget(key, ...FIGURES));
  }

  async reserve({ keyId, clientId, ceiling, calls = 1 }: Spender): Promise<string> {
    const resetsAt = this.resetsAt();
    this.#stops.check(keyId, resetsAt);
    const day = utcDay(this.#now());
    const cap = clientId === undefined ? 0 : clientCap(this.options);
    let answer: [number, number];
    try {
      await this.#legacyFloor(keyId, day);
      answer = await this.#reserveRecorded([
        dayKey(keyId, day),
        pauseKey(keyId),
        clientKey('budget-client', keyId, clientId, day),
        clientKey('budget-client-paced', keyId, clientId, day),
        this.options.dailyLimit,
        this.#dayKeyTtlMs(),
        cap,
        this.#lastUsed(keyId, day),
        ceiling?.total ?? -1,
        ceiling?.counter ?? '',
        ceiling?.limit ?? 0,
        clientId === undefined ? -1 : (ceiling?.clientLimit ?? -1),
        calls,
      ]);
    } catch (error) {
      if (!(error instanceof Unacknowledged)) throw callNotRecorded('unreachable', resetsAt, error);
      // Counted by the primary, and no call made: given back, so the day is not spent on nothing.
      // The client's counters go back only when the reservation took both (a first touch under
      // the client's share); otherwise its share keeps the call, one too many, never too few.
      const firstTouch = clientId !== undefined && ceiling?.clientLimit !== undefined;
      await this.release({ keyId, ...(firstTouch ? { clientId } : {}), ceiling, calls, day });
      throw callNotRecorded('unacknowledged', resetsAt, error);
    }
    const [result, detail] = answer;
    if (result === -1) throw budgetSpent(resetsAt);
    if (result === -2) throw keyPaused(detail, resetsAt);
    if (result === -3) throw clientShareSpent(cap, resetsAt);
    if (result === -4) throw new PlanRefusal();
    if (result === -5) throw new PlanRefusal(detail);
    this.#lastKnown.set(keyId, { day, used: result });
    // A 429 may have come back to this process while the script ran: the call must not leave then.
    this.#stops.check(keyId, resetsAt);
    return day;
  }

  /**
   * The script's answer, once the count it made is where a failover keeps it; Unacknowledged when
   * fewer replicas than asked hold it in time. Giving that count back cannot lose one either:
   * replication keeps order, so a replica that has the giving back has the count before it, and
   * one that has only the count holds a call too many, never one too few.
   */
  async #reserveRecorded(args: (string | number)[]): Promise<[number, number]> {
    if (this.#durability.replicas === 0) return (await this.#reserve(...args)) as [number, number];
    const { answer, replicas } = await runAcknowledged(
      this.redis,
      RESERVE_SCRIPT,
      args,
      this.#durability,
    );
    const reserved = answer as [number, number];
    if (reserved[0] >= 0 && replicas < this.#durability.replicas) {
      throw new Unacknowledged(
        `${replicas} of ${this.#durability.replicas} replicas acknowledged the reservation within ${this.#durability.timeoutMs} ms`,
      );
    }
    return reserved;
  }

  async release({ keyId, clientId, ceiling, calls, day }: Returned): Promise<void> {
    if (calls <= 0 || day !== utcDay(this.#now())) return;
    // Lost if Redis cannot take it now: the day stays counted as if the calls were made.
    await this.#release(
      dayKey(keyId, day),
      clientKey('budget-client', keyId, clientId, day),
      clientKey('budget-client-paced', keyId, clientId, day),
      calls,
      ceiling?.counter ?? '',
      clientId === undefined ? '0' : '1',
      this.#dayKeyTtlMs(),
    ).catch(() => undefined);
  }

  async dayTurned(keyId: string, countedOn: string): Promise<string> {
    const today = utcDay(this.#now());
    if (today === countedOn) return countedOn;
    const key = dayKey(keyId, today);
    // `used` only grows (a replica's last count is a floor of it): one more is still one.
    await this.redis
      .multi()
      .hincrby(key, 'used', 1)
      .pexpire(key, this.#dayKeyTtlMs())
      .exec()
      .catch(() => undefined);
    return today;
  }

  rateLimited(keyId: string, error: UpstreamError): void {
    const kind = rateLimitKindOf(error);
    this.#stops.record(keyId, kind);
    const today = dayKey(keyId, utcDay(this.#now()));
    const written =
      kind.kind === 'daily'
        ? this.redis
            .multi()
            .hset(today, 'exhausted', '1')
            .pexpire(today, this.#dayKeyTtlMs())
            .exec()
        : this.redis.set(pauseKey(keyId), '1', 'PX', kind.ms);
    // Not shared while Redis is down: other replicas then make no call anyway.
    written.catch(() => undefined);
  }

  async forget(keyId: string): Promise<void> {
    this.#lastKnown.delete(keyId);
    // Expiring on its own anyway: deleting it now only keeps a flood of made-up keys from lingering until tomorrow.
    await this.redis.del(dayKey(keyId, utcDay(this.#now()))).catch(() => undefined);
  }

  async usage(keyId: string): Promise<BudgetUsage> {
    const day = utcDay(this.#now());
    let used: number;
    let exhausted: boolean;
    try {
      await this.#legacyFloor(keyId, day);
      const [usedText, returnedText, exhaustedText] = await this.redis.hmget(
        dayKey(keyId, day),
        'used',
        'returned',
        'exhausted',
      );
      const gross = Math.max(Number(usedText ?? 0), this.#lastUsed(keyId, day));
      this.#lastKnown.set(keyId, { day, used: gross });
      used = Math.max(0, gross - Number(returnedText ?? 0));
      exhausted = exhaustedText === '1';
    } catch {
      used = this.#lastUsed(keyId, day);
      exhausted = false;
    }
    exhausted ||= this.#stops.isStoppedToday(keyId);
    const dailyLimit = this.options.dailyLimit;
    return {
      dailyLimit,
      used,
      remaining: exhausted ? 0 : Math.max(0, dailyLimit - used),
      resetsAt: this.resetsAt(),
    };
  }

  async spending(keyId: string): Promise<DaySpending> {
    const day = utcDay(this.#now());
    try {
      await this.#legacyFloor(keyId, day);
      const figures = (await this.#figures(dayKey(keyId, day))).map(Number);
      const [used, paced, refreshed, polled, returned, rPaced, rRefreshed, rPolled] = figures.map(
        (figure) => (Number.isFinite(figure) ? figure : 0),
      ) as [number, number, number, number, number, number, number, number];
      return {
        used: Math.max(0, Math.max(used, this.#lastUsed(keyId, day)) - returned),
        paced: Math.max(0, paced - rPaced),
        refreshed: Math.max(0, refreshed - rRefreshed),
        polled: Math.max(0, polled - rPolled),
      };
    } catch {
      // Nothing can be reserved while Redis is down anyway (reserve refuses); the plan only needs a figure.
      return { used: this.#lastUsed(keyId, day), paced: 0, refreshed: 0, polled: 0 };
    }
  }

  resetsAt(): string {
    return resetsAtOf(this.#now());
  }

  /**
   * 0.2 named a key's day `budget:<key hash>:<day>`, without the hash tag a cluster needs: on one
   * Redis upgraded during the day, that count is read once per key and day as a floor (as a
   * replica's last known count is), so the upgrade does not start the day again. A cluster never
   * held 0.2's keys. To go in the release after next, when no such key can be left.
   */
  async #legacyFloor(keyId: string, day: string): Promise<void> {
    const checked = `${keyId} ${day}`;
    if (isCluster(this.redis) || this.#legacyChecked.has(checked)) return;
    const used = Number((await this.redis.hget(`budget:${keyId}:${day}`, 'used')) ?? 0);
    this.#legacyChecked.set(checked, true);
    if (used > this.#lastUsed(keyId, day)) this.#lastKnown.set(keyId, { day, used });
  }

  #lastUsed(keyId: string, day: string): number {
    const known = this.#lastKnown.get(keyId);
    return known?.day === day ? known.used : 0;
  }

  /**
   * How long the day's keys live, measured on this gateway's calendar at the write and sent as a
   * duration: an instant would be judged by Redis's own clock, which may be days off this one.
   */
  #dayKeyTtlMs(): number {
    return msUntilEndOfDay(this.#now()) + DAY_KEY_GRACE_MS;
  }
}

const RESERVE_SCRIPT = 'budgetReserve';
/** The day's figures the plan weighs: each counter as taken, then as given back (RESERVE, RELEASE). */
const FIGURES = [
  'used',
  'paced',
  'refreshed',
  'polled',
  'returned',
  'returned:paced',
  'returned:refreshed',
  'returned:polled',
] as const;

/** A key's day: `budget:{<key hash>}:<day>`, in the key's slot like every key of its reservation. */
export const dayKey = (keyId: string, day: string) => `budget:${hashTag(keyId)}:${day}`;
const pauseKey = (keyId: string) => `pause:${hashTag(keyId)}`;
/** A client's counter of a key's day (`-` in pass-through mode, where the script never touches it). */
const clientKey = (kind: string, keyId: string, clientId: string | undefined, day: string) =>
  `${kind}:${hashTag(keyId)}:${clientId ?? '-'}:${day}`;
