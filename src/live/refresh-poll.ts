/**
 * The gateway's clock: the one cheap poll the upstream recommends (the first
 * page of recent milestones, compared by id), made by one replica per
 * REFRESH_POLL_SECONDS. It is a normal upstream call: counted in the budget,
 * skipped when the budget refuses it. New ids mean the upstream refreshed:
 * a new generation is recorded (cached answers from before are revalidated
 * on their next read), with the artists the new milestones belong to (whose
 * timelines alone changed), and each new milestone is announced to subscribers.
 *
 * The upstream refreshes at one time of day: the poll learns it from when
 * it saw the last refresh, and polls at a dense cadence in the window the
 * next one is expected in (freshness/refresh-window.ts), so that it is seen
 * within minutes of publication.
 *
 * Durations come from timers only; Date gives the calendar "seen at" value
 * and whether the expected window is open.
 */
import type { Logger } from 'pino';
import type { PollCadence, PollLease } from '../coordination/poll-lease.js';
import type { GenerationStore, GenerationView, PollKind } from '../freshness/generation.js';
import { denseCadenceMs } from '../freshness/refresh-window.js';
import type { CachedUpstream } from '../reads/cached-upstream.js';
import type { Caller } from '../reads/caller.js';
import { endpoints } from '../upstream/endpoints.js';
import { UpstreamError } from '../upstream/errors.js';
import type { MilestoneRecord, Page } from '../upstream/records.js';
import type { LiveFeed } from './live-feed.js';

export interface RefreshPollOptions {
  readonly intervalMs: number;
  readonly upstream: CachedUpstream;
  /** The gateway's own key; the poll spends its budget. */
  readonly caller: Caller;
  readonly store: GenerationStore;
  readonly view: GenerationView;
  readonly feed: LiveFeed;
  readonly lease: PollLease;
  readonly logger: Logger;
  readonly now?: () => Date;
}

export class RefreshPoll {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(private readonly options: RefreshPollOptions) {
    options.feed.onGeneration((generation) => options.view.learn(generation));
  }

  /**
   * How often the lease is tried: twice per dense poll, so that a poll runs at most half a dense
   * cadence late.
   */
  get #tryEveryMs(): number {
    return Math.max(1, Math.floor(denseCadenceMs(this.options.intervalMs) / 2));
  }

  /** Loads the shared generation, then tries for the lease every #tryEveryMs (first try after one). */
  async start(): Promise<void> {
    await this.#learnShared().catch(() => undefined);
    const every = this.#tryEveryMs;
    this.#timer = setInterval(() => {
      this.#running ??= this.tick().finally(() => (this.#running = undefined));
    }, every);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }

  /**
   * One try: poll if this process holds the lease of the cadence in effect (dense while the
   * upstream's refresh is expected), otherwise catch up with the shared generation.
   */
  async tick(): Promise<void> {
    const { lease, intervalMs, view, logger } = this.options;
    const cadence: PollCadence = view.refreshExpected() ? 'dense' : 'steady';
    const spacingMs = cadence === 'steady' ? intervalMs : denseCadenceMs(intervalMs);
    try {
      if (await lease.take(spacingMs, cadence)) await this.pollNow(cadence);
      else await this.#learnShared();
    } catch (error) {
      logger.warn(
        { error: (error as Error).message },
        'refresh poll failed; the next interval tries again',
      );
    }
  }

  /**
   * The poll itself, whoever holds the lease (tick calls it; tests call it to poll at a chosen
   * moment); `kind`: the cadence it runs at.
   */
  async pollNow(kind: PollKind = 'steady'): Promise<void> {
    const { upstream, caller, store, view, feed, logger } = this.options;
    const request = endpoints.recentMilestonesPage(1, undefined);
    let polled: { value: Page<MilestoneRecord>; keep(): Promise<void> };
    try {
      polled = await upstream.poll(request, caller);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      // Budget spent, key paused, upstream down: the cached data stays in its generation until a poll succeeds.
      logger.info({ code: error.code }, 'refresh poll skipped');
      return;
    }
    const page = polled.value;
    const seenAt = (this.options.now?.() ?? new Date()).toISOString();
    const advance = await store.advance(
      page.items.map((item) => ({
        id: item.id,
        ...(item.artistSlug ? { artist: item.artistSlug } : {}),
      })),
      seenAt,
      view.now()?.id ?? 0,
      kind,
    );
    view.learn(advance.generation);
    // Stored after the generation moved: the page just read belongs to it, not to the one before.
    await polled.keep();
    if (advance.newIds.length === 0) return;
    logger.info(
      { generation: advance.generation.id, newMilestones: advance.newIds.length },
      'upstream refreshed: new data generation',
    );
    feed.publishGeneration(advance.generation);
    const fresh = new Set(advance.newIds);
    // Oldest first, so a ticker shows them in the order they happened.
    for (const item of [...page.items].reverse())
      if (fresh.has(item.id)) feed.publishMilestone(item);
  }

  async #learnShared(): Promise<void> {
    this.options.view.learn(await this.options.store.load());
  }
}
