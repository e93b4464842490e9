/**
 * `npm run simulate:first-day`: how close to the clairvoyant allocator any
 * plan can come on a deployment's first day, when nothing tells it which
 * artists the audience favours (issue 30 asks for 0.97).
 *
 * The plan measured here knows more than the gateway does: the audience's
 * exact law (Zipf over the catalogue, the shape's hours, the day's number of
 * artist views), everything but who is who. At each view of an artist not
 * yet bought it weighs the view itself and the views that artist is expected
 * to get in the rest of the day, given how often it has been seen so far
 * (the posterior over the artist's rank), and buys the artist's four
 * records when that is worth at least a threshold. The threshold is the one
 * that served the most views on that very day, picked with hindsight. Each
 * artist costs what it costs the clairvoyant (simulate/clairvoyant.ts), and
 * the day's home lists, chart and polls are taken from the limit first, as
 * the clairvoyant takes them.
 *
 * Its figure is what a plan without a prior could reach at best; the gateway
 * (`npm run simulate`) is measured against it in docs/economy.md.
 */
import { Clairvoyant } from './clairvoyant.js';
import { optionsOrUsage, type SimulationOptions } from './options.js';
import { recordsOf } from './pages.js';
import { SHAPE_CURVES, Traffic, type View } from './traffic.js';

const MS_PER_HOUR = 3_600_000;
const HOURS = 24;
/** Thresholds tried, in views worth of one artist's records. */
const THRESHOLDS = Array.from({ length: 51 }, (_, i) => 1 + i / 10);

function main(): void {
  const options = optionsOrUsage(process.argv.slice(2), 'simulate:first-day');
  if (options === undefined) return;
  // Who is who does not matter to a plan without a prior: any names give the same day.
  const slugs = Array.from({ length: options.artists }, (_, i) => `artist-${i}`);
  const views = new Traffic(options, slugs).day(1, 0);
  const pollsPerDay = Math.ceil((HOURS * 60) / options.pollMinutes);
  const clairvoyant = new Clairvoyant(options.limit, pollsPerDay).day(views).full;
  const artistCost = recordsOf({ at: 0, kind: 'artist', slug: '' }).length;
  const sharedCalls =
    recordsOf({ at: 0, kind: 'home' }).length + recordsOf({ at: 0, kind: 'chart' }).length;
  const affordable = Math.floor(
    Math.max(0, options.limit - pollsPerDay - sharedCalls) / artistCost,
  );
  const worth = new Worth(options, views);
  let best = { full: 0, threshold: 0 };
  for (const threshold of THRESHOLDS) {
    const full = servedBy(views, affordable, (seen, at) => worth.of(seen, at) >= threshold);
    if (full > best.full) best = { full, threshold };
  }
  console.log(
    `First day, shape ${options.shape}, seed ${options.seed}, ${options.limit} calls: ` +
      `clairvoyant ${clairvoyant} views in full, the best plan without a prior ${best.full} ` +
      `(threshold ${best.threshold.toFixed(1)} views): ratio ${(best.full / clairvoyant).toFixed(3)}`,
  );
}

/** Views answered in full when artists are bought (up to `affordable` of them) as `buys` says. */
function servedBy(
  views: readonly View[],
  affordable: number,
  buys: (seen: number, at: number) => boolean,
): number {
  const seen = new Map<string, number>();
  const bought = new Set<string>();
  let full = 0;
  for (const view of views) {
    if (view.slug === undefined) {
      full += 1;
      continue;
    }
    if (bought.has(view.slug)) {
      full += 1;
      continue;
    }
    const count = (seen.get(view.slug) ?? 0) + 1;
    seen.set(view.slug, count);
    if (bought.size < affordable && buys(count, view.at)) {
      bought.add(view.slug);
      full += 1;
    }
  }
  return full;
}

/**
 * What buying an artist at a view is worth, in views: the view, and the views the artist is
 * expected to get in the rest of the day once seen `seen` times by then. The audience picks
 * artists by Zipf (rank r with weight 1 / (r + 1)); a crawled artist is one more unknown.
 */
class Worth {
  readonly #rates: Float64Array;
  /** Artist views a crawler makes in the day, each of an artist it never shows again. */
  readonly #crawled: number;
  readonly #progress: readonly number[];
  readonly #cache = new Map<string, number>();

  constructor(options: SimulationOptions, views: readonly View[]) {
    const artistViews = views.filter((view) => view.slug !== undefined).length;
    this.#crawled = artistViews * SHAPE_CURVES[options.shape].crawler;
    const audienceViews = artistViews - this.#crawled;
    let harmonic = 0;
    for (let rank = 0; rank < options.artists; rank += 1) harmonic += 1 / (rank + 1);
    this.#rates = Float64Array.from(
      { length: options.artists },
      (_, rank) => audienceViews / (harmonic * (rank + 1)),
    );
    const { hours } = SHAPE_CURVES[options.shape];
    const total = hours.reduce((a, b) => a + b, 0);
    const progress = [0];
    for (const weight of hours) progress.push((progress.at(-1) ?? 0) + weight / total);
    this.#progress = progress;
  }

  of(seen: number, at: number): number {
    const passed = Math.round(this.#passed(at) * 1_000) / 1_000;
    const key = `${seen}:${passed}`;
    let worth = this.#cache.get(key);
    if (worth === undefined) {
      worth = 1 + this.#expectedRate(seen, passed) * (1 - passed);
      this.#cache.set(key, worth);
    }
    return worth;
  }

  /** The share of the day's views come by `at` (ms since midnight), by the shape's hours. */
  #passed(at: number): number {
    const hours = at / MS_PER_HOUR;
    const hour = Math.min(HOURS - 1, Math.floor(hours));
    const start = this.#progress[hour] ?? 0;
    return start + ((this.#progress[hour + 1] ?? 1) - start) * (hours - hour);
  }

  /**
   * The day's expected views of an artist seen `seen` times by `passed` of the day: the posterior
   * over its rank (Poisson), where an artist seen once may also be one the crawler showed.
   */
  #expectedRate(seen: number, passed: number): number {
    const share = Math.max(passed, 1e-6);
    let most = Number.NEGATIVE_INFINITY;
    const logs = Array.from(this.#rates, (rate) => {
      const log = seen * Math.log(rate * share) - rate * share;
      most = Math.max(most, log);
      return log;
    });
    // The crawler's artists seen so far, each once and never again: weighed like the ranks (× e^−most).
    let weight = seen === 1 ? this.#crawled * share * Math.exp(-most) : 0;
    let rate = 0;
    logs.forEach((log, rank) => {
      const w = Math.exp(log - most);
      weight += w;
      rate += w * (this.#rates[rank] ?? 0);
    });
    return rate / weight;
  }
}

main();
