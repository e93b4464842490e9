/**
 * One capacity-planning run: the moved clock, the simulator refreshing daily,
 * N gateway replicas on one Redis, the day's views in time order (a few at
 * once, the clock advanced to each), the refresh poll driven at each
 * simulated interval, and one row of figures per day next to the
 * clairvoyant reference on the same traffic and plan.
 */
import { performance } from 'node:perf_hooks';
import type { Simulator } from '../src/simulator/index.js';
import { DAY_MS } from '../src/time.js';
import { Clairvoyant } from './clairvoyant.js';
import { type DayRow, emptyRow } from './measures.js';
import { installMovedClock, type MovedClock } from './moved-clock.js';
import type { SimulationOptions } from './options.js';
import { requestOf } from './pages.js';
import { type Replica, startReplicas } from './replicas.js';
import { byPurposeOf, countCalls, type HeadSets, post, Scoring } from './scoring.js';
import { Traffic, type View } from './traffic.js';
import { API_KEY, startSimulatedUpstream } from './upstream.js';

const MS_PER_MINUTE = 60_000;
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
    simulator = await startSimulatedUpstream(options);
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
  private readonly scoring: Scoring;
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
    this.scoring = new Scoring(simulator.data, options.refreshHourUtc);
  }

  async day(day: number): Promise<DayRow> {
    const dayStart = this.start + (day - 1) * DAY_MS;
    const dayEnd = dayStart + DAY_MS;
    const views = this.traffic.day(day, dayStart);
    const row = emptyRow(day);
    const head = this.scoring.headOf(views);
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
    row.byPurpose = byPurposeOf(await (this.replicas[0] as Replica).gateway.metrics.scrape());

    countCalls(this.simulator, dayStart, row);
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
    // The calendar runs on in real time from `view.at`: the view is asked now, as it is sent.
    const askedAt = this.clock.now();
    this.scoring.record(view, await post(replica.url, requestOf(view)), row, head, askedAt);
  }
}
