/**
 * `extensions.cost`, in the spirit of GitHub's and Shopify's rate-limit
 * reports: what an answer cost upstream and what is left of the key's day.
 * Written by one function for every answer, a Yoga execution's
 * (use-cost-report.ts) and a response-cache hit's (fast-path.ts), so that
 * the two cannot drift: a hit differs only by `responseCache: "hit"` and its
 * zero counts.
 */
import type { BudgetUsage } from '../../economy/ledger.js';

export interface CostFigures {
  /** The worst case estimated before execution (use-upstream-cost-limit.ts); absent when none was made. */
  readonly estimated: number | undefined;
  readonly upstreamCalls: number;
  readonly cacheHits: number;
  readonly deduplicated: number;
  /** Set on an answer from the response cache. */
  readonly responseCache?: 'hit';
}

export function costExtension(figures: CostFigures, usage: BudgetUsage) {
  return {
    ...(figures.estimated === undefined ? {} : { estimated: figures.estimated }),
    upstreamCalls: figures.upstreamCalls,
    cacheHits: figures.cacheHits,
    deduplicated: figures.deduplicated,
    ...(figures.responseCache === undefined ? {} : { responseCache: figures.responseCache }),
    budget: {
      dailyLimit: usage.dailyLimit,
      remaining: usage.remaining,
      resetsAt: usage.resetsAt,
    },
  };
}
