/**
 * A simulated day of frontend traffic, known in advance and reproducible from
 * the seed: how many views of each kind (the mix), which artist each artist
 * page shows (Zipf, s = 1, over a fixed seeded permutation of the whole
 * catalogue: the same artists are popular every day), and when each view
 * happens (a diurnal curve, below).
 */
import { rngFor } from '../src/simulator/prng.js';
import type { SimulationOptions, ViewKind } from './options.js';

const MS_PER_HOUR = 3_600_000;
/** Salts of this module's random streams (the simulator's own salts stay below 100). */
const POPULARITY_SALT = 101;
const DAY_SALT = 102;

/**
 * Relative views per UTC hour: an audience in West Africa and the UK (UTC+0/+1)
 * sleeps from 01:00 to 06:00, browses through the day, and peaks in the
 * evening at 20:00-21:00 (about nine times the quietest hour).
 */
export const HOURLY_WEIGHTS: readonly number[] = [
  3, 2, 1.5, 1, 1, 1.5, 2.5, 3.5, 4, 4.5, 4.5, 5, 5, 5, 5, 5.5, 6, 6.5, 7.5, 8.5, 9, 8.5, 6.5, 4.5,
];

/**
 * The shapes a day's traffic may take (`--shape`), each a curve over the hours
 * and a share of artist views that a crawler makes, walking the catalogue's
 * long tail in order, one artist after another, at any hour:
 * - evening: the audience above;
 * - uniform: every hour alike;
 * - morning: most of the day's views between 06:00 and 09:00 (a newsletter);
 * - crawler: the evening audience, and a crawler making a third of the artist views;
 * - mix: the morning burst on the evening audience, and a crawler making a sixth.
 */
export type Shape = 'evening' | 'uniform' | 'morning' | 'crawler' | 'mix';
export const SHAPES: readonly Shape[] = ['evening', 'uniform', 'morning', 'crawler', 'mix'];

const MORNING_BURST = HOURLY_WEIGHTS.map((_, hour) => (hour >= 6 && hour < 9 ? 40 : 1));
export const SHAPE_CURVES: Readonly<Record<Shape, { hours: readonly number[]; crawler: number }>> =
  {
    evening: { hours: HOURLY_WEIGHTS, crawler: 0 },
    uniform: { hours: HOURLY_WEIGHTS.map(() => 1), crawler: 0 },
    morning: { hours: MORNING_BURST, crawler: 0 },
    crawler: { hours: HOURLY_WEIGHTS, crawler: 1 / 3 },
    mix: { hours: HOURLY_WEIGHTS.map((w, h) => w + (MORNING_BURST[h] ?? 0) / 2), crawler: 1 / 6 },
  };

export interface View {
  /** Simulated epoch milliseconds. */
  readonly at: number;
  readonly kind: ViewKind;
  /** The artist shown by an artist page; absent for the other kinds. */
  readonly slug?: string;
}

/** The page a view shows: views of the same page read the same upstream records. */
export function pageOf(view: View): string {
  return view.kind === 'artist' ? `artist:${view.slug}` : view.kind;
}

export class Traffic {
  /** Artist slugs from the most to the least viewed. */
  readonly popularity: readonly string[];
  private readonly cumulative: Float64Array;

  constructor(
    private readonly options: SimulationOptions,
    slugs: readonly string[],
  ) {
    const rng = rngFor(options.seed, POPULARITY_SALT);
    const order = [...slugs];
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = Math.floor(rng() * (i + 1));
      [order[i], order[j]] = [order[j] as string, order[i] as string];
    }
    this.popularity = order;
    this.cumulative = new Float64Array(order.length);
    let sum = 0;
    for (let r = 0; r < order.length; r += 1) {
      sum += 1 / (r + 1);
      this.cumulative[r] = sum;
    }
  }

  /** Day `day` (1-based) starting at `dayStart` (epoch ms, a UTC midnight): the views in time order. */
  day(day: number, dayStart: number): View[] {
    const rng = rngFor(this.options.seed, DAY_SALT, day);
    const kinds = Object.entries(this.options.mix) as [ViewKind, number][];
    const { hours, crawler } = SHAPE_CURVES[this.options.shape];
    const hourTotal = hours.reduce((a, b) => a + b, 0);
    const views: View[] = [];
    for (let i = 0; i < this.options.views; i += 1) {
      const kind = pickShare(rng(), kinds);
      const crawled = kind === 'artist' && rng() < crawler;
      let hour = 0;
      if (crawled) hour = Math.floor(rng() * 24);
      else
        for (let h = rng() * hourTotal; hour < 23 && h >= (hours[hour] ?? 0); hour += 1)
          h -= hours[hour] ?? 0;
      const at = dayStart + Math.floor((hour + rng()) * MS_PER_HOUR);
      if (kind !== 'artist') views.push({ at, kind });
      else views.push({ at, kind, slug: crawled ? this.#crawled() : this.artist(rng()) });
    }
    return views.sort((a, b) => a.at - b.at);
  }

  /** Where the crawler is in the long tail: from the least viewed artist up, never the same twice in a run. */
  #crawl = 0;

  #crawled(): string {
    const slug =
      this.popularity[this.popularity.length - 1 - (this.#crawl % this.popularity.length)];
    this.#crawl += 1;
    return slug as string;
  }

  /** Zipf with s = 1: rank r (0-based) with probability proportional to 1 / (r + 1). */
  private artist(u: number): string {
    const target = u * (this.cumulative[this.cumulative.length - 1] ?? 0);
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.cumulative[mid] ?? 0) < target) lo = mid + 1;
      else hi = mid;
    }
    return this.popularity[lo] as string;
  }
}

function pickShare(u: number, shares: readonly [ViewKind, number][]): ViewKind {
  let left = u;
  for (const [kind, share] of shares) {
    if (left < share) return kind;
    left -= share;
  }
  return shares.findLast(([, share]) => share > 0)?.[0] ?? 'home';
}
