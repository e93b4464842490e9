/**
 * The first day's bound (`npm run simulate:first-day`, simulate/online-bound.ts): every view
 * when every artist can be bought, and never below what concrete plans without a prior serve
 * on days drawn from the same law.
 */
import { describe, expect, it } from 'vitest';
import { demandAxis, onlineBound, zipfLaw } from '../../simulate/online-bound.js';
import { rngFor } from '../../src/simulator/prng.js';

const EVEN_DAY = Array.from({ length: 24 }, () => 1);
const DAYS = 400;

/** One day's views of each artist: times (share of the day) of a Poisson process at its rate. */
function drawDay(rates: readonly number[], day: number): { artist: number; at: number }[] {
  const rng = rngFor(7, day);
  const views: { artist: number; at: number }[] = [];
  rates.forEach((rate, artist) => {
    for (let at = -Math.log(1 - rng()) / rate; at < 1; at += -Math.log(1 - rng()) / rate)
      views.push({ artist, at });
  });
  return views.sort((a, b) => a.at - b.at);
}

/** Mean views in full over DAYS days when an artist is bought at its `buyAt`-th view while `affordable` last. */
function servedBuyingAt(rates: readonly number[], affordable: number, buyAt: number): number {
  let served = 0;
  for (let day = 1; day <= DAYS; day += 1) {
    const seen = new Map<number, number>();
    const bought = new Set<number>();
    for (const { artist } of drawDay(rates, day)) {
      const count = (seen.get(artist) ?? 0) + 1;
      seen.set(artist, count);
      if (!bought.has(artist) && count >= buyAt && bought.size < affordable) bought.add(artist);
      if (bought.has(artist)) served += 1;
    }
  }
  return served / DAYS;
}

describe('the first day bound', () => {
  it('is every view when every artist can be bought', { timeout: 60_000 }, () => {
    const law = zipfLaw(200, 1_000, 0);
    const bound = onlineBound(law, demandAxis(EVEN_DAY), 200);
    expect(bound.views).toBeGreaterThan(995);
    expect(bound.views).toBeLessThan(1_005);
  });

  it('is never below what plans without a prior serve', { timeout: 60_000 }, () => {
    const catalogue = 1_000;
    const views = 600;
    const affordable = 25;
    const law = zipfLaw(catalogue, views, 0);
    const bound = onlineBound(law, demandAxis(EVEN_DAY), affordable).views;
    let harmonic = 0;
    for (let rank = 1; rank <= catalogue; rank += 1) harmonic += 1 / rank;
    const rates = Array.from({ length: catalogue }, (_, r) => views / (harmonic * (r + 1)));
    const plans = [1, 2, 3].map((buyAt) => servedBuyingAt(rates, affordable, buyAt));
    for (const served of plans) expect(bound).toBeGreaterThanOrEqual(served);
    // Tight enough to say something: buying at the second view comes within about 1 % of it.
    expect(bound).toBeLessThan(1.05 * Math.max(...plans));
    expect(bound).toBeLessThan(views);
  });
});
