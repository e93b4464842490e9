/**
 * Indices of the k highest scores among `count` candidates, best first. Scores of
 * -Infinity are skipped (filtered out). One pass with a small sorted buffer, so
 * a leaderboard over a million songs needs no full sort.
 */
export function topK(count: number, k: number, score: (index: number) => number): number[] {
  const indices: number[] = [];
  const scores: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const s = score(i);
    if (s === Number.NEGATIVE_INFINITY) continue;
    if (indices.length === k && s <= (scores[k - 1] ?? Number.NEGATIVE_INFINITY)) continue;
    let at = indices.length;
    while (at > 0 && (scores[at - 1] ?? 0) < s) at -= 1;
    indices.splice(at, 0, i);
    scores.splice(at, 0, s);
    if (indices.length > k) {
      indices.pop();
      scores.pop();
    }
  }
  return indices;
}
