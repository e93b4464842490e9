/**
 * Refreshes even out over the generations (popular-sweep.ts, `refreshedAhead`): on a day after
 * the deployment's first, the sweep at a new generation refreshes ahead the most popular half of
 * the kept records that would otherwise all fall due at the next one, once for the deployment
 * of three processes; at the next generation the others are refreshed and none moved, so each
 * record is still refreshed once every other generation.
 */
import { describe, expect, it } from 'vitest';
import { artistGenerations, freshnessOf } from '../support/artist-generations.js';
import {
  calendarAt,
  EVEN_YESTERDAY,
  FIRST_DAY,
  useMovedDeployment,
} from '../support/moved-deployment.js';
import { until } from '../support/replicas.js';

const moved = useMovedDeployment(
  calendarAt(FIRST_DAY + 12 * 60 * 60 * 1000),
  { artists: 100 },
  // A refresh allowance of 7 records a day (whether the 1 s poll's calls are counted by its
  // interval or its cadence): the head is the most asked record, and up to 13 records are kept
  // within one refresh, enough for the refreshes of this file's generations, which all turn on
  // the same day.
  { BUDGET_HEAD_SHARE: '0.01', REFRESH_POLL_SECONDS: '1' },
  3,
  // Not the deployment's first day: the whole refresh allowance is the refreshes'.
  EVEN_YESTERDAY,
);
const { artists, profileCalls, viewEverywhere, baseline, nextGeneration } =
  artistGenerations(moved);

/**
 * Every replica views each of `slugs`: each answer is whole and of `generation`, read in it
 * (`readIn` undefined) or held from generation `readIn`.
 */
async function expectAnswers(slugs: string[], generation: number, readIn?: number) {
  for (const slug of slugs)
    for (const answer of await viewEverywhere(slug)) {
      expect(answer.body.errors).toBeUndefined();
      if (readIn === undefined) {
        expect(freshnessOf(answer)).toMatchObject({ generation });
        expect(freshnessOf(answer)?.oldestRead).toBeUndefined();
      } else
        expect(freshnessOf(answer)).toMatchObject({
          generation,
          oldestRead: { generation: readIn },
        });
    }
}

describe('refreshes moved ahead to even out the generations', () => {
  // The most asked artist (the head), then the four kept records, most asked first.
  let head = '';
  let kept: string[] = [];

  it('reads the head and four kept records, each asked often enough to be read today', async () => {
    [head, ...kept] = artists().slice(0, 5) as [string, ...string[]];
    await baseline();
    // The head well ahead: the kept records' views in the later tests must not make one the head.
    const views: [string, number][] = [head, ...kept].map((slug, i) => [
      slug,
      i === 0 ? 60 : 42 - 3 * i,
    ]);
    for (const [slug, count] of views)
      for (let i = 0; i < count; i += moved.replicas.length) await viewEverywhere(slug);
    for (const slug of [head, ...kept]) expect(profileCalls(slug)).toBe(1);
  });

  it('one generation on: the two most popular kept records are refreshed ahead, once; the others are served as read', async () => {
    const generation = await nextGeneration();
    const [first, second, third, fourth] = kept as [string, string, string, string];
    await until(() => [first, second].every((slug) => profileCalls(slug) === 2));
    await expectAnswers([first, second], generation);
    await expectAnswers([third, fourth], generation, 0);
    for (const slug of [third, fourth]) expect(profileCalls(slug)).toBe(1);
  });

  it('two generations on: the others are refreshed and none is moved; every kept record was refreshed once', async () => {
    const generation = await nextGeneration();
    const [first, second, third, fourth] = kept as [string, string, string, string];
    await until(() => [third, fourth].every((slug) => profileCalls(slug) === 2));
    await expectAnswers([third, fourth], generation);
    await expectAnswers([first, second], generation, 1);
    for (const slug of kept) expect(profileCalls(slug)).toBe(2);
  });
});
