/**
 * The reference allocator of issue 15: it knows the day's views in advance and
 * keeps everything it ever read. Each day it reserves the hourly poll's calls,
 * 2 for the home lists and 1 for the chart, and one for each of the 100
 * most-viewed artists' profiles (their refresh); then it spends what is left
 * of the limit greedily on the day's artists by views per call, a call being
 * one of the artist's records it does not hold yet. A view is answered in full
 * when every record it reads is held.
 */
import { recordsOf } from './pages.js';
import type { View } from './traffic.js';

export const REFRESHED_HEAD = 100;

export interface ClairvoyantDay {
  readonly full: number;
  readonly calls: number;
}

export class Clairvoyant {
  private readonly held = new Set<string>();

  constructor(
    private readonly limit: number,
    private readonly pollsPerDay: number,
  ) {}

  day(views: readonly View[]): ClairvoyantDay {
    let left = this.limit;
    const spend = (records: readonly string[]): void => {
      for (const record of records) {
        if (left === 0) return;
        this.held.add(record);
        left -= 1;
      }
    };
    const polls = Math.min(left, this.pollsPerDay);
    left -= polls;
    if (polls > 0) this.held.add(recordsOf({ at: 0, kind: 'milestones' })[0] as string);
    spend(recordsOf({ at: 0, kind: 'home' }));
    spend(recordsOf({ at: 0, kind: 'chart' }));

    const viewsOf = new Map<string, number>();
    for (const view of views)
      if (view.slug !== undefined) viewsOf.set(view.slug, (viewsOf.get(view.slug) ?? 0) + 1);
    const byViews = [...viewsOf].sort((a, b) => b[1] - a[1]);
    for (const [slug] of byViews.slice(0, REFRESHED_HEAD))
      spend([recordsOf({ at: 0, kind: 'artist', slug })[0] as string]);

    const missing = (slug: string): string[] =>
      recordsOf({ at: 0, kind: 'artist', slug }).filter((record) => !this.held.has(record));
    const candidates = byViews
      .map(([slug, count]) => ({ slug, count, cost: missing(slug).length }))
      .filter((candidate) => candidate.cost > 0)
      .sort((a, b) => b.count / b.cost - a.count / a.cost || b.count - a.count);
    for (const candidate of candidates) {
      if (candidate.cost > left) continue;
      spend(missing(candidate.slug));
    }
    const full = views.filter((view) => recordsOf(view).every((r) => this.held.has(r))).length;
    return { full, calls: this.limit - left };
  }
}
