/**
 * One capacity-planning run: the moved clock, the simulator refreshing daily,
 * N gateway replicas on one Redis, the day's views in time order (a few at
 * once, the clock advanced to each), the refresh poll driven at each
 * simulated interval, and one row of figures per day next to the
 * clairvoyant reference on the same traffic and plan.
 */
import { performance } from 'node:perf_hooks';
import { type Simulator, startSimulator } from '../src/simulator/index.js';
import { DAY_MS } from '../src/time.js';
import { Clairvoyant, REFRESHED_HEAD } from './clairvoyant.js';
import { type Answer, type DayRow, emptyRow, outcomeOf } from './measures.js';
import { installMovedClock, type MovedClock } from './moved-clock.js';
import type { SimulationOptions } from './options.js';
import { requestOf } from './pages.js';
import { type Replica, startReplicas } from './replicas.js';
import { pageOf, Traffic, type View } from './traffic.js';

const MS_PER_MINUTE = 60_000;
const API_KEY = 'simulate-key';
/** How long replicas get (real time) to learn a new generation from the poller before the run goes on regardless. */
const LEARN_TIMEOUT_MS = 5_000;

export interface SimulationResult {
  readonly rows: readonly DayRow[];
  /** Real seconds the run took, start-up included. */
  readonly wallSeconds: number;
  /** Polls after which some replica had not learnt the poller's generation in time. */
  readonly lateGenerations: number;
}

export async function runSimulation(
  options: SimulationOptions,
  progress: (line: string) => void = () => undefined,
): Promise<SimulationResult> {
  const started = performance.now();
  const clock = installMovedClock();
  let simulator: Simulator | undefined;
  let close = async (): Promise<void> => undefined;
  try {
    const start = clock.now();
    simulator = await startSimulator({
      artists: options.artists,
      seed: options.seed,
      apiKeys: [API_KEY],
      dailyLimit: options.limit,
      refreshHourUtc: options.refreshHourUtc,
    });
    const set = await startReplicas({
      count: options.replicas,
      redisUrl: options.redisUrl,
      upstreamUrl: simulator.url,
      upstreamApiKey: API_KEY,
      dailyLimit: options.limit,
      pollMinutes: options.pollMinutes,
    });
    close = () => set.close();
    const run = new Run(options, clock, simulator, set.replicas, start);
    const rows: DayRow[] = [];
    for (let day = 1; day <= options.days; day += 1) {
      const row = await run.day(day);
      rows.push(row);
      progress(`day ${day}: ${row.views} views, ${row.calls} upstream calls`);
    }
    return {
      rows,
      wallSeconds: (performance.now() - started) / 1000,
      lateGenerations: run.lateGenerations,
    };
  } finally {
    await close();
    await simulator?.close();
    clock.restore();
  }
}

class Run {
  private readonly traffic: Traffic;
  private readonly clairvoyant: Clairvoyant;
  private readonly pollEveryMs: number;
  private nextPollAt: number;
  private pollCount = 0;
  private viewCount = 0;
  /** Pages answered in full so far (any day). */
  private readonly answered = new Set<string>();
  /** Artist page views of the run so far, by slug: who the most-viewed artists are. */
  private readonly viewsSoFar = new Map<string, number>();
  /** The upstream's data day the gateway last polled (data age is counted from it). */
  private polledDataDate = '';
  lateGenerations = 0;

  constructor(
    private readonly options: SimulationOptions,
    private readonly clock: MovedClock,
    private readonly simulator: Simulator,
    private readonly replicas: readonly Replica[],
    private readonly start: number,
  ) {
    this.traffic = new Traffic(
      options,
      simulator.data.allArtists().map((artist) => artist.slug),
    );
    this.pollEveryMs = options.pollMinutes * MS_PER_MINUTE;
    this.clairvoyant = new Clairvoyant(options.limit, Math.ceil(DAY_MS / this.pollEveryMs));
    this.nextPollAt = start;
  }

  async day(day: number): Promise<DayRow> {
    const dayStart = this.start + (day - 1) * DAY_MS;
    const dayEnd = dayStart + DAY_MS;
    const views = this.traffic.day(day, dayStart);
    const row = emptyRow(day);
    for (const view of views)
      if (view.slug !== undefined)
        this.viewsSoFar.set(view.slug, (this.viewsSoFar.get(view.slug) ?? 0) + 1);
    const head = { run: mostViewed(this.viewsSoFar), day: mostViewed(countsOf(views)) };
    const inFlight = new Set<Promise<void>>();
    const drain = () => Promise.all(inFlight);
    for (const view of views) {
      while (this.nextPollAt <= view.at) {
        await drain();
        await this.poll();
      }
      while (inFlight.size >= this.options.concurrency) await Promise.race(inFlight);
      this.clock.advanceTo(view.at);
      const running = this.view(view, row, head).finally(() => inFlight.delete(running));
      inFlight.add(running);
    }
    await drain();
    while (this.nextPollAt < dayEnd) await this.poll();

    for (const call of this.simulator.calls) {
      if (call.at < dayStart || call.at >= dayEnd) continue;
      row.calls += 1;
      if (call.status === 429) row.status429 += 1;
    }
    const reference = this.clairvoyant.day(views);
    row.clairvoyantFull = reference.full;
    row.clairvoyantCalls = reference.calls;
    return row;
  }

  /** The poll of one replica (round-robin) at its simulated time; the others learn the generation from it. */
  private async poll(): Promise<void> {
    this.clock.advanceTo(this.nextPollAt);
    this.nextPollAt += this.pollEveryMs;
    const poller = this.replicas[this.pollCount++ % this.replicas.length] as Replica;
    await poller.gateway.refreshPoll?.pollNow();
    this.polledDataDate = this.simulator.data.dataDate;
    // The others catch up as on their own timer's tick (the lease is held, so a tick only loads the shared generation).
    await Promise.all(
      this.replicas.filter((r) => r !== poller).map((r) => r.gateway.refreshPoll?.tick()),
    );
    const id = poller.gateway.generation.now()?.id;
    const deadline = performance.now() + LEARN_TIMEOUT_MS;
    const learnt = () => this.replicas.every((r) => r.gateway.generation.now()?.id === id);
    while (!learnt() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    if (!learnt()) this.lateGenerations += 1;
  }

  private async view(view: View, row: DayRow, head: HeadSets): Promise<void> {
    const replica = this.replicas[this.viewCount++ % this.replicas.length] as Replica;
    const page = pageOf(view);
    const answer = await post(replica.url, requestOf(view));
    const outcome = outcomeOf(answer);
    row.views += 1;
    if (outcome.full) {
      row.full += 1;
      if (outcome.fromOlderGeneration) row.fullFromOlder += 1;
    }
    if (outcome.refused) {
      row.refused += 1;
      if (this.answered.has(page)) row.refusedOnceAnswered += 1;
      if (outcome.refusedWithoutResetsAt) row.refusedWithoutResetsAt += 1;
    }
    if (outcome.otherErrors.length > 0) {
      row.otherErrors += 1;
      for (const code of new Set(outcome.otherErrors))
        row.otherCodes.set(code, (row.otherCodes.get(code) ?? 0) + 1);
    }
    if (outcome.full) this.answered.add(page);
    if (view.slug === undefined) return;
    const twoBehind = (outcome.generationsBehind ?? 0) >= 2;
    if (head.day.has(view.slug) && twoBehind) row.dayHeadStale += 1;
    if (!head.run.has(view.slug)) return;
    if (outcome.generationsBehind !== undefined)
      row.headStaleByReport = (row.headStaleByReport ?? 0) + (twoBehind ? 1 : 0);
    if (this.dataAge(view.slug, answer) >= 2) row.headStaleByData += 1;
  }

  /** Data days between the upstream's day at the last poll and the day whose total the answer shows; 0 if unknown. */
  private dataAge(slug: string, answer: Answer): number {
    const artist = answer.body.data?.artist as { totalStreams?: unknown } | null | undefined;
    const totals = this.simulator.data.totalsOf(slug);
    if (typeof artist?.totalStreams !== 'number' || totals === null) return 0;
    const shown = totals.findLast((entry) => entry.totalStreams === artist.totalStreams);
    if (shown === undefined) return 0;
    return Math.round((Date.parse(this.polledDataDate) - Date.parse(shown.dataDate)) / DAY_MS);
  }
}

/**
 * The 100 most-viewed artists (REFRESHED_HEAD of them) whose views must
 * never be more than one refresh old: those of the run through this day, as
 * an operator would name them, and, for comparison, those of this day alone
 * (artists of the long tail that happen to be viewed a lot on one day).
 */
interface HeadSets {
  readonly run: ReadonlySet<string>;
  readonly day: ReadonlySet<string>;
}

function countsOf(views: readonly View[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const view of views)
    if (view.slug !== undefined) counts.set(view.slug, (counts.get(view.slug) ?? 0) + 1);
  return counts;
}

function mostViewed(counts: ReadonlyMap<string, number>): Set<string> {
  return new Set(
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, REFRESHED_HEAD)
      .map(([slug]) => slug),
  );
}

async function post(
  url: string,
  request: { query: string; variables?: Record<string, unknown> },
): Promise<Answer> {
  try {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify(request),
    });
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) as Answer['body'] };
    } catch {
      return { status: response.status, body: {} };
    }
  } catch (error) {
    return {
      status: 0,
      body: { errors: [{ message: String(error), extensions: { code: 'FETCH_FAILED' } }] },
    };
  }
}
