import type { RequestLoader } from '../loaders/request-loader.js';
import type { BudgetLedger } from '../upstream/budget.js';
import type { UpstreamAssumptions } from '../upstream/endpoints.js';
import type { Caller } from '../upstream/cached-upstream.js';
import type { RequestStats } from '../upstream/request-stats.js';

/** What every resolver gets: the request's loader and the figures it accumulates. */
export interface GatewayContext {
  readonly caller: Caller;
  readonly loader: RequestLoader;
  readonly stats: RequestStats;
  readonly budget: BudgetLedger;
  /** Settings for what the upstream description leaves open (limits sent, see README). */
  readonly assumptions: UpstreamAssumptions;
}
