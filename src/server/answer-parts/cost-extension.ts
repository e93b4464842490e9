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

/** `extensions.cost` as its JSON reads: the figures, then the key's budget. */
export interface CostReport {
  estimated?: number;
  upstreamCalls: number;
  cacheHits: number;
  deduplicated: number;
  responseCache?: 'hit';
  budget: { readonly dailyLimit: number; readonly remaining: number; readonly resetsAt: string };
}

export function costExtension(figures: CostFigures, usage: BudgetUsage): CostReport {
  // Built member by member, optional ones only when present: spreading an empty or a one-member
  // object in their place made every answer's report one of several shapes, each spread slow.
  const report = {} as CostReport;
  if (figures.estimated !== undefined) report.estimated = figures.estimated;
  report.upstreamCalls = figures.upstreamCalls;
  report.cacheHits = figures.cacheHits;
  report.deduplicated = figures.deduplicated;
  if (figures.responseCache !== undefined) report.responseCache = figures.responseCache;
  report.budget = {
    dailyLimit: usage.dailyLimit,
    remaining: usage.remaining,
    resetsAt: usage.resetsAt,
  };
  return report;
}
