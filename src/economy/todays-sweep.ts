/**
 * Where today's sweep at the upstream's new generation ended (refresh-release.ts): the refreshes
 * made after it follow the reads of held popular records, so they show the pace of those still
 * to come; counted from midnight, the sweep's own hundreds would make that pace look several
 * times too high, and the unspent allowance would wait for the day's last quarter. Each process
 * marks its own sweep's end: the replicas sweep at once, and a sweep another replica is still
 * making only makes the pace look higher, which keeps more for refreshes, never less.
 */
import { utcDay } from '../time.js';

export interface SweepMark {
  /** When the sweep's refreshes had all come back, on the calendar. */
  readonly at: Date;
  /** The day's refreshes by then (the ledger's count, every replica's). */
  readonly refreshed: number;
}

export class TodaysSweep {
  #mark: SweepMark | undefined;

  ended(mark: SweepMark): void {
    this.#mark = mark;
  }

  /** The sweep that ended on `now`'s UTC day; undefined until one has. */
  of(now: Date): SweepMark | undefined {
    const mark = this.#mark;
    return mark !== undefined && utcDay(mark.at) === utcDay(now) ? mark : undefined;
  }
}
