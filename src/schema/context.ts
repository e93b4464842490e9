import type { BudgetLedger } from '../economy/ledger.js';
import type { GenerationView } from '../freshness/generation.js';
import type { LiveFeed } from '../live/live-feed.js';
import type { Caller } from '../reads/caller.js';
import type { Loader } from '../reads/request-loader.js';
import type { RequestReport } from '../reads/request-report.js';
import type { RequestSpending } from '../reads/request-spending.js';
import type { UpstreamAssumptions } from '../upstream/endpoints.js';

/** What every resolver gets: the request's loader, what its answer will report, and what it may spend. */
export interface GatewayContext {
  readonly caller: Caller;
  readonly loader: Loader;
  readonly report: RequestReport;
  readonly spending: RequestSpending;
  readonly budget: BudgetLedger;
  /** Settings for what the upstream description leaves open (limits sent, see README). */
  readonly assumptions: UpstreamAssumptions;
  /** New milestones and generations announced by the refresh poll (subscriptions). */
  readonly live: LiveFeed;
  /** The data generation this process knows (`extensions.freshness`). */
  readonly generation: GenerationView;
  /** Called for each subscription event: a fresh loader and call cap, as for a new request. */
  renewForEvent(): void;
  /** A subscription's events, ended once its client falls too far behind (SUBSCRIBER_BACKLOG_BYTES). */
  boundedBacklog<T>(events: AsyncIterableIterator<T>): AsyncIterableIterator<T>;
}
