/**
 * What the shared cache tells without a call: that the upstream said a
 * record does not exist, or how long a list is (a page of it told it). Only
 * to a caller who may read the cache: a client key the upstream accepted; a
 * proof of it under way is waited for, to the read's deadline.
 */
import type { CacheEntry, ResponseCache } from '../cache/cache.js';
import type { KeyProofs } from '../coordination/key-proofs.js';
import type { GenerationView } from '../freshness/generation.js';
import type { UpstreamRequest } from '../upstream/endpoints.js';
import type { Caller } from './caller.js';
import { totalKey } from './entries.js';
import { isCurrent } from './entry-state.js';
import type { RequestReport } from './request-report.js';
import type { RequestReads } from './request-spending.js';

export interface CachedFactsOptions {
  readonly cache: ResponseCache;
  readonly proofs: KeyProofs;
  readonly generation?: GenerationView;
  readonly deadlineMs: number;
}

export class CachedFacts {
  constructor(private readonly options: CachedFactsOptions) {}

  /** True when a current cached answer says the resource does not exist. */
  async missing(
    request: UpstreamRequest<unknown>,
    caller: Caller,
    { report }: RequestReads,
  ): Promise<boolean> {
    const cached = await this.#trustedEntry(request.key, caller, report);
    return cached?.outcome === 'not-found' && isCurrent(cached, this.options.generation);
  }

  /**
   * The length of the list `request` is a page of, when a page of it read in the current
   * generation told it (kept in the shared cache, so every replica knows it); undefined otherwise.
   */
  async total(
    request: UpstreamRequest<unknown>,
    caller: Caller,
    { report }: RequestReads,
  ): Promise<number | undefined> {
    if (request.list === undefined) return undefined;
    const cached = await this.#trustedEntry(totalKey(request.list.key), caller, report);
    if (
      cached === undefined ||
      !isCurrent(cached, this.options.generation) ||
      typeof cached.value !== 'number'
    )
      return undefined;
    // An answer built on this length is no fresher than the page that told it.
    report.answeredFrom(cached.freshUntil);
    return cached.value;
  }

  async #trustedEntry(
    key: string,
    caller: Caller,
    report: RequestReport,
  ): Promise<CacheEntry | undefined> {
    const entry = await this.options.cache.get(key);
    // The key is asked about only when there is an entry it might read: most facts are not
    // there to be read, and asking costs an unproven key a round trip to a shared registry.
    if (entry === undefined || caller.mode !== 'client' || report.keyAccepted) return entry;
    const status = await this.options.proofs
      .settled(caller.keyId, AbortSignal.timeout(this.options.deadlineMs))
      .catch(() => 'unknown' as const);
    return status === 'accepted' ? entry : undefined;
  }
}
