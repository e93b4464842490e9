/** Pass-through requests for the key-proof tests: a client's own key, and queries of many upstream reads. */
import type { Simulator } from '../../src/simulator/index.js';

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** `count` artists from the `from`th: four upstream reads each (profile, history, milestones, songs). */
export function artistsQuery(simulator: Simulator, from: number, count: number): string {
  const slugs = simulator.data
    .allArtists()
    .slice(from, from + count)
    .map((artist) => artist.slug);
  const fields = slugs.map(
    (slug, i) =>
      `a${i}: artist(slug: "${slug}") { name history { date } milestones { threshold } songs { totalCount } }`,
  );
  return `{ ${fields.join(' ')} }`;
}
