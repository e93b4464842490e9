/** The daily request budget, counted per key per UTC day on an injectable clock. */
import { utcDayOf } from './dates.js';

export class DailyBudget {
  private readonly usage = new Map<string, { day: number; count: number }>();

  constructor(
    readonly limit: number,
    private readonly now: () => Date,
  ) {}

  /** Counts one request; false once the key is past its limit for the current UTC day. */
  consume(key: string): boolean {
    const day = utcDayOf(this.now());
    const entry = this.usage.get(key);
    if (entry === undefined || entry.day !== day) {
      this.usage.set(key, { day, count: 1 });
      return this.limit >= 1;
    }
    entry.count += 1;
    return entry.count <= this.limit;
  }

  reset(): void {
    this.usage.clear();
  }
}
