/**
 * `npm run bench:group-cold`: what a cold page costs a group of workers without Redis, whose
 * primary keeps the machine's stores (leases, the day's budget, the shared levels of both
 * caches) and answers their calls over node:cluster's channel. Ours runs from dist/ as
 * `npm start` runs it (pass-through, production, log at info, `WORKERS=auto`); once both
 * workers are up and idle, PAGES artist pages of artists nobody asked for before are asked,
 * CONCURRENCY at a time, and the CPU time of the whole group (primary and workers) is read
 * from /proc before and after. Every page is a miss of every record it reads: its upstream
 * calls, each with its lease and its reservation, are the primary's work.
 *
 * Settings: ROUNDS (5; a fresh group each), PAGES (99, at most the simulator's leaderboard
 * less one), CONCURRENCY (4), AGAINST (another built checkout, measured the same way in
 * alternate rounds: a change against the commit before it, in one sitting).
 */
import { format, median } from './figures.js';
import { ARTIST_PAGE_QUERY } from './reference-queries.js';
import { numberSetting } from './settings.js';
import { cpuMicros, type Running, startOurs, startSimulator, tree } from './tailcall/processes.js';

const ROUNDS = numberSetting('ROUNDS', 5, 1, true);
const PAGES = numberSetting('PAGES', 99, 1, true);
const CONCURRENCY = numberSetting('CONCURRENCY', 4, 1, true);
const AGAINST = process.env.AGAINST?.trim() || undefined;
const KEY = 'bench-key';
const HEADERS = { 'content-type': 'application/json', authorization: `Bearer ${KEY}` };
/** The process tree of a group of two workers: the primary and both workers. */
const GROUP_SIZE = 3;

async function page(url: string, slug: string): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ query: ARTIST_PAGE_QUERY, variables: { slug } }),
  });
  const body = await response.text();
  if (response.status !== 200 || body.includes('"errors"'))
    throw new Error(`the page of ${slug} failed (${response.status}): ${body.slice(0, 300)}`);
}

/** Once every worker has started and the group has spent no CPU for a while: warm-ups done. */
async function settled(ours: Running): Promise<void> {
  const quietMs = 300;
  for (;;) {
    const before = cpuMicros(ours.pid);
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const spent = cpuMicros(ours.pid) - before;
    if (tree(ours.pid).length >= GROUP_SIZE && spent < quietMs * 100) return;
  }
}

/** Group CPU µs per cold page, over `slugs`, on a fresh group of `checkout`. */
async function round(upstreamUrl: string, slugs: readonly string[], checkout?: string) {
  const ours = await startOurs(upstreamUrl, { WORKERS: 'auto' }, checkout);
  try {
    // The key proven, the operation compiled, the second worker started: as on a running group.
    await page(ours.url, slugs[0]!);
    await settled(ours);
    const pages = slugs.slice(1, PAGES + 1);
    const before = cpuMicros(ours.pid);
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < pages.length) await page(ours.url, pages[next++]!);
      }),
    );
    return (cpuMicros(ours.pid) - before) / pages.length;
  } finally {
    await ours.stop();
  }
}

const simulator = await startSimulator(0, KEY);
try {
  const leaderboard = await fetch(
    `${simulator.url}/api/v1/leaderboard/streams?limit=${PAGES + 1}`,
    { headers: HEADERS },
  );
  const slugs = ((await leaderboard.json()) as { slug: string }[]).map((artist) => artist.slug);
  const sides = AGAINST === undefined ? ['this checkout'] : ['this checkout', AGAINST];
  const perPage = new Map<string, number[]>(sides.map((side) => [side, []]));
  for (let index = 0; index < ROUNDS; index++) {
    for (const side of index % 2 === 0 ? sides : [...sides].reverse()) {
      const micros = await round(simulator.url, slugs, side === AGAINST ? AGAINST : undefined);
      perPage.get(side)!.push(micros);
      console.error(`round ${index + 1}, ${side}: ${Math.round(micros)} µs per page`);
    }
  }
  console.log(
    `\n# A cold page's CPU in a group of workers without Redis (npm run bench:group-cold)\n\n` +
      `${ROUNDS} rounds of ${slugs.length - 1} artist pages, ${CONCURRENCY} at a time, each on a fresh group.\n`,
  );
  console.log('| side | group CPU µs per cold page (median) | range |');
  console.log('|---|---:|---:|');
  for (const [side, values] of perPage)
    console.log(
      `| ${side} | ${format(median(values))} | ${format(Math.min(...values))}-${format(Math.max(...values))} |`,
    );
  if (AGAINST !== undefined) {
    const [ours, other] = [perPage.get('this checkout')!, perPage.get(AGAINST)!];
    const ratios = ours.map((micros, index) => micros / other[index]!);
    console.log(
      `\nThis checkout / ${AGAINST}, the median of the rounds' ratios: ${median(ratios).toFixed(2)} ` +
        `(${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}).`,
    );
  }
} finally {
  await simulator.stop();
}
