/**
 * An upper bound on the artist views any plan without a prior can expect to answer in full on
 * a first day (issue 30), whatever it does: a Lagrangian relaxation of the day's budget.
 *
 * Every artist starts unknown and alike: its rank in the audience's favour is unknown, the same
 * for all (the audience is a seeded permutation of the catalogue). A plan buys an artist's
 * records at one of its views, and that view and the artist's later views of the day are
 * answered in full; its earlier views are not. What a plan can know when it decides is how
 * often the artist has been seen so far and when (and the law: Zipf, the shape's hours, the day's
 * artist views, the crawler's share, which the gateway is not even told).
 *
 * Price each artist bought at `price` views and drop the budget: the day's best then splits
 * into one stopping problem per artist (buy at this view, or wait for the next), the same for
 * all, solved exactly by dynamic programming over (views seen, share of the day's demand
 * passed). For any plan that keeps to the budget, its views in full are at most the relaxed
 * optimum plus `price × budget` (weak duality), for every price; the bound is the least of
 * these. It is a bound on the expectation over the audience's draws, with each artist's views
 * a Poisson process (the simulated day's fixed total makes them binomial, a negligible
 * difference at 5,000 views spread over thousands of artists), and it knows more than any
 * plan can: information one artist's views give about another's rank is ignored, and the budget
 * need hold only on average.
 */

export interface ArtistLaw {
  /** Views a day of each audience artist, one entry per group of nearly equal ranks. */
  readonly rates: Float64Array;
  /** How many artists each entry stands for. */
  readonly artists: Float64Array;
  /** Artists a crawler shows once each in the day, never again (views of the long tail). */
  readonly crawled: number;
}

export interface DayAxis {
  /** Share of the audience's day passed, 0 … 1, finer where the favourites' first views fall. */
  readonly points: Float64Array;
  /** Clock time per unit of demand at each point: where the crawler's even pace falls on it. */
  readonly clockPerDemand: Float64Array;
}

export interface OnlineBound {
  /** Artist views no plan without a prior can expect to answer in full beyond this. */
  readonly views: number;
  /** The price (views per artist bought) at which the bound is least. */
  readonly price: number;
  /** At that price: until which share of the day's demand the relaxed optimum buys an artist at its k-th view (index k − 1). */
  readonly buysUntil: readonly number[];
}

/** Views after which an artist is simply bought: beyond them waiting never pays. */
const MOST_VIEWS_WEIGHED = 30;
/** Ranks with rates within this factor share one entry of the law (at 1.002 the same bound to four figures, five times slower). */
const RATE_GROUP = 1.01;

/** The audience's law: Zipf (s = 1) over `catalogue` artists sharing `audienceViews`, and `crawled` one-timers. */
export function zipfLaw(catalogue: number, audienceViews: number, crawled: number): ArtistLaw {
  let harmonic = 0;
  for (let rank = 1; rank <= catalogue; rank += 1) harmonic += 1 / rank;
  const rateOf = (rank: number) => audienceViews / (harmonic * rank);
  const rates: number[] = [];
  const artists: number[] = [];
  for (let rank = 1; rank <= catalogue; ) {
    const first = rateOf(rank);
    let sum = 0;
    let count = 0;
    for (; rank <= catalogue && first / rateOf(rank) < RATE_GROUP; rank += 1) {
      sum += rateOf(rank);
      count += 1;
    }
    rates.push(sum / count);
    artists.push(count);
  }
  return { rates: Float64Array.from(rates), artists: Float64Array.from(artists), crawled };
}

/** The demand axis of a day whose audience comes by `hours` (relative weights per UTC hour). */
export function demandAxis(hours: readonly number[]): DayAxis {
  const fine = Array.from({ length: 250 }, (_, i) => 1e-6 * (0.02 / 1e-6) ** (i / 249));
  const even = Array.from({ length: 350 }, (_, i) => 0.02 + (0.98 * i) / 349);
  const points = Float64Array.from(new Set([0, ...fine, ...even]));
  const total = hours.reduce((a, b) => a + b, 0);
  const starts = [0];
  for (const weight of hours) starts.push((starts.at(-1) ?? 0) + weight / total);
  const clockPerDemand = points.map((point) => {
    let hour = 0;
    while (hour < hours.length - 1 && (starts[hour + 1] ?? 1) <= point) hour += 1;
    return total / (hours.length * (hours[hour] ?? 1));
  });
  return { points, clockPerDemand };
}

/**
 * The least, over prices, of the relaxed optimum plus price × `affordable` artists: golden
 * section over the price (the dual is convex in it).
 */
export function onlineBound(law: ArtistLaw, axis: DayAxis, affordable: number): OnlineBound {
  const stays = stayOdds(law, axis);
  const solve = (price: number) => new StoppingProblem(law, axis, stays, price);
  const dual = (price: number) => solve(price).value + price * affordable;
  const ratio = (Math.sqrt(5) - 1) / 2;
  let low = 0;
  // An artist bought is worth at most the views of the day's favourite.
  let high = Math.max(...law.rates, 1);
  let left = high - ratio * (high - low);
  let right = low + ratio * (high - low);
  let atLeft = dual(left);
  let atRight = dual(right);
  while (high - low > 1e-2) {
    if (atLeft < atRight) {
      high = right;
      right = left;
      atRight = atLeft;
      left = high - ratio * (high - low);
      atLeft = dual(left);
    } else {
      low = left;
      left = right;
      atLeft = atRight;
      right = low + ratio * (high - low);
      atRight = dual(right);
    }
  }
  const price = (low + high) / 2;
  const problem = solve(price);
  return { views: problem.value + price * affordable, price, buysUntil: problem.buysUntil };
}

/**
 * For each step of the axis and entry of the law, the odds that no view comes within the step
 * (e^(−rate·step)): the same at every price and every count of views, so computed once.
 */
function stayOdds(law: ArtistLaw, axis: DayAxis): Float64Array[] {
  const { points } = axis;
  return Array.from({ length: points.length - 1 }, (_, i) => {
    const step = (points[i + 1] as number) - (points[i] as number);
    return law.rates.map((rate) => Math.exp(-rate * step));
  });
}

/**
 * One artist's problem at a price: at each of its views, buy (this view and the expected views
 * to come, less the price) or wait for its next view. `value` is the sum over the catalogue of
 * each artist's expected best.
 */
class StoppingProblem {
  readonly value: number;
  readonly buysUntil: number[] = [];

  constructor(
    private readonly law: ArtistLaw,
    private readonly axis: DayAxis,
    /** stayOdds(law, axis). */
    private readonly stays: readonly Float64Array[],
    price: number,
  ) {
    const { points, clockPerDemand } = axis;
    const last = points.length - 1;
    let next = new Float64Array(points.length);
    for (let seen = MOST_VIEWS_WEIGHED; seen >= 1; seen -= 1) {
      const best = new Float64Array(points.length);
      const waiting = new Float64Array(law.rates.length);
      let until = 0;
      for (let i = last; i >= 0; i -= 1) {
        if (seen < MOST_VIEWS_WEIGHED && i < last) this.#stepBack(waiting, next, i);
        const { meanRate, waitValue } = this.#posterior(seen, i, waiting);
        const buy = 1 + meanRate * (1 - (points[i] as number)) - price;
        const wait = seen < MOST_VIEWS_WEIGHED ? waitValue : 0;
        best[i] = Math.max(buy, wait);
        if (buy >= wait && until === 0) until = points[i] as number;
      }
      this.buysUntil[seen - 1] = until;
      next = best;
    }
    const firstView = new Float64Array(law.rates.length);
    for (let i = last - 1; i >= 0; i -= 1) this.#stepBack(firstView, next, i);
    let value = 0;
    for (let g = 0; g < law.rates.length; g += 1)
      value += (law.artists[g] as number) * (firstView[g] as number);
    // The crawler's artists: one view each, evenly over the clock.
    for (let i = 0; i < last; i += 1)
      value +=
        (law.crawled *
          ((next[i] as number) * (clockPerDemand[i] as number) +
            (next[i + 1] as number) * (clockPerDemand[i + 1] as number)) *
          ((points[i + 1] as number) - (points[i] as number))) /
        2;
    this.value = value;
  }

  /**
   * From the value of waiting at point i + 1 to point i, per entry of the law: the next view
   * comes within the step with probability 1 − e^(−rate·step), worth the next state's best.
   */
  #stepBack(waiting: Float64Array, next: Float64Array, i: number): void {
    const stays = this.stays[i] as Float64Array;
    const worth = ((next[i] as number) + (next[i + 1] as number)) / 2;
    for (let g = 0; g < waiting.length; g += 1) {
      const stay = stays[g] as number;
      waiting[g] = stay * (waiting[g] as number) + (1 - stay) * worth;
    }
  }

  /**
   * What `seen` views by point i say of the artist: its expected rate (the posterior over its
   * rank, each rank likelier as rate^seen · e^(−rate·passed)), and the expected value of waiting.
   * An artist seen once may be one of the crawler's, whose rate is nought.
   */
  #posterior(seen: number, i: number, waiting: Float64Array) {
    const passed = this.axis.points[i] as number;
    const { rates, artists } = this.law;
    let most = Number.NEGATIVE_INFINITY;
    for (const rate of rates) most = Math.max(most, seen * Math.log(rate) - rate * passed);
    let weight =
      seen === 1 ? this.law.crawled * (this.axis.clockPerDemand[i] as number) * Math.exp(-most) : 0;
    let rateSum = 0;
    let waitSum = 0;
    for (let g = 0; g < rates.length; g += 1) {
      const rate = rates[g] as number;
      const w = (artists[g] as number) * Math.exp(seen * Math.log(rate) - rate * passed - most);
      weight += w;
      rateSum += w * rate;
      waitSum += w * (waiting[g] as number);
    }
    return { meanRate: rateSum / weight, waitValue: waitSum / weight };
  }
}
