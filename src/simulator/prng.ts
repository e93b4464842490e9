/**
 * Deterministic randomness. Every generated value is derived from the seed plus
 * a few integer keys, so any part of the dataset (one artist's songs, one chart)
 * can be regenerated on its own and always comes out the same.
 */

export type Rng = () => number;

const TWO_POW_32 = 4_294_967_296;

/** mulberry32: tiny, fast, good enough for test data. Returns floats in [0, 1). */
export function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / TWO_POW_32;
  };
}

/** Mixes integer keys into one 32-bit hash (order matters). */
export function hash32(a: number, b = 0, c = 0, d = 0): number {
  let h = 0x811c9dc5 ^ Math.imul(a | 0, 0x9e3779b1);
  h = mix(h, b);
  h = mix(h, c);
  h = mix(h, d);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

function mix(h: number, k: number): number {
  let x = Math.imul(k | 0, 0xcc9e2d51);
  x = (x << 15) | (x >>> 17);
  x = Math.imul(x, 0x1b873593);
  const y = (h ^ x) >>> 0;
  return (Math.imul((y << 13) | (y >>> 19), 5) + 0xe6546b64) >>> 0;
}

/** A hash as a float in [0, 1): for one-off values in hot loops where a PRNG object is too costly. */
export function unitHash(a: number, b = 0, c = 0, d = 0): number {
  return hash32(a, b, c, d) / TWO_POW_32;
}

export function rngFor(a: number, b = 0, c = 0, d = 0): Rng {
  return mulberry32(hash32(a, b, c, d));
}

export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

export function pickWeighted<T>(rng: Rng, items: readonly (readonly [T, number])[]): T {
  const total = items.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = rng() * total;
  for (const [item, weight] of items) {
    roll -= weight;
    if (roll < 0) return item;
  }
  const last = items[items.length - 1];
  if (last === undefined) throw new Error('pick from an empty list');
  return last[0];
}

/** Roughly normal (mean 0, sd 1), from the sum of uniforms: cheap and bounded. */
export function gaussish(rng: Rng): number {
  return (rng() + rng() + rng() + rng() - 2) * 1.732;
}

/** Salts that keep the independent random streams apart. */
export const Salt = {
  artists: 1,
  songNumbers: 2,
  songText: 3,
  awards: 4,
  artistNoise: 5,
  songNoise: 6,
  charts: 7,
  chartPick: 8,
  platform: 9,
  gaps: 10,
  gapFields: 11,
  rerelease: 12,
  unlisted: 13,
  milestoneIds: 14,
} as const;
