/**
 * Kept records take their refresh turn (every other generation) by the page
 * they are read on: an artist page's four records are refreshed in the same
 * generation, so that the page never shows two; records read alone take it by
 * their own key, and either way half of them fall due in each generation.
 */
import { expect, it } from 'vitest';
import { isRefreshTurn, turnOf } from '../../src/reads/held-entries.js';
import { endpoints } from '../../src/upstream/endpoints.js';

const slugs = Array.from({ length: 400 }, (_, i) => `artist-${i}`);
const pageOf = (slug: string) => [
  endpoints.artist(slug),
  endpoints.artistHistory(slug),
  endpoints.songsOfArtist(slug, 100),
  endpoints.timeline(slug),
];

it('gives an artist page’s records one turn, whatever the slug’s case, and other pages others', () => {
  for (const slug of slugs.slice(0, 20)) {
    const turns = new Set([...pageOf(slug), ...pageOf(slug.toUpperCase())].map(turnOf));
    expect(turns.size).toBe(1);
  }
  expect(new Set(slugs.map((slug) => turnOf(endpoints.artist(slug)))).size).toBe(slugs.length);
});

it('gives a record read alone its own key’s turn', () => {
  const song = endpoints.song('some-song');
  expect(turnOf(song)).toBe(song.key);
});

it('refreshes each page every other generation, about half of them in each', () => {
  const turns = slugs.map((slug) => turnOf(endpoints.artist(slug)));
  for (const generation of [7, 8]) {
    const due = turns.filter((turn) => isRefreshTurn(turn, generation));
    expect(due.length).toBeGreaterThan(slugs.length * 0.4);
    expect(due.length).toBeLessThan(slugs.length * 0.6);
    for (const turn of due) expect(isRefreshTurn(turn, generation + 1)).toBe(false);
  }
});
