/**
 * The daily upstream budget of each API key, counted by the gateway itself so
 * that `apiUsage` and the cost report need no upstream call. Counts are kept
 * per UTC day; once the upstream has answered 429 (or the configured limit is
 * reached) a key makes no further calls until midnight UTC.
 */
import { nextUtcMidnight, utcDay } from '../time.js';

export interface BudgetUsage {
  readonly dailyLimit: number;
  readonly used: number;
  readonly remaining: number;
  readonly resetsAt: string;
}

interface DayCount {
  day: string;
  used: number;
  /** Set once the upstream said 429 for this key today. */
  exhausted: boolean;
}

/** Keys seen in one day are few (one per client in pass-through mode); this bounds a flood of made-up keys. */
const MAX_TRACKED_KEYS = 10_000;

export class BudgetLedger {
  readonly #counts = new Map<string, DayCount>();

  constructor(
    private readonly dailyLimit: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  #today(keyId: string): DayCount {
    const day = utcDay(this.now());
    let count = this.#counts.get(keyId);
    if (count === undefined || count.day !== day) {
      if (this.#counts.size >= MAX_TRACKED_KEYS) this.#forgetOtherDays(day);
      count = { day, used: 0, exhausted: false };
      this.#counts.set(keyId, count);
    }
    return count;
  }

  #forgetOtherDays(day: string): void {
    for (const [keyId, count] of this.#counts) if (count.day !== day) this.#counts.delete(keyId);
    // Still full of today's keys: drop the oldest entry rather than grow without bound.
    if (this.#counts.size >= MAX_TRACKED_KEYS) {
      const oldest = this.#counts.keys().next().value;
      if (oldest !== undefined) this.#counts.delete(oldest);
    }
  }

  /** True when the key may make another upstream call today. */
  canSpend(keyId: string): boolean {
    const count = this.#today(keyId);
    return !count.exhausted && count.used < this.dailyLimit;
  }

  /** Records one upstream call made with the key. */
  spend(keyId: string): void {
    this.#today(keyId).used += 1;
  }

  /** The upstream said 429: no more calls with this key until the reset. */
  markExhausted(keyId: string): void {
    this.#today(keyId).exhausted = true;
  }

  usage(keyId: string): BudgetUsage {
    const count = this.#today(keyId);
    const remaining = count.exhausted ? 0 : Math.max(0, this.dailyLimit - count.used);
    return {
      dailyLimit: this.dailyLimit,
      used: count.used,
      remaining,
      resetsAt: this.resetsAt(),
    };
  }

  resetsAt(): string {
    return nextUtcMidnight(this.now()).toISOString();
  }
}
