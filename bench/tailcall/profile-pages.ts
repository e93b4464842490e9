/**
 * A CPU profile of ours under the varying artist page (`npx tsx bench/tailcall/profile-pages.ts`):
 * ours from dist/ with --cpu-prof, the page's slug cycling over ARTISTS artists for SECONDS, then
 * the profile's functions by self time. PROFILE_DIR: where the .cpuprofile goes; QUERY: another
 * of bench/tailcall/queries.ts's keys (`artist`, `chart`…), repeated as it is unless it varies;
 * VARY=1: its body new on every request (an undeclared variable that changes), so that each is a
 * response-cache miss; NODE_ARGS: more flags for ours (`--cpu-prof` is always given). The key is
 * proven first (one artist read), as a client's would be: misses then run what a proven key's do.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { postLoad } from './post-load.js';
import { leaderboardSlugs, startOurs, startSimulator } from './processes.js';
import { loadBodies, PEER_QUERIES } from './queries.js';

const SECONDS = Number(process.env.SECONDS ?? 10);
const ARTISTS = Number(process.env.ARTISTS ?? 100);
const DIR = process.env.PROFILE_DIR ?? '/tmp/prof-jit';
const KEY = 'bench-key';
const HEADERS = { 'content-type': 'application/json', authorization: `Bearer ${KEY}` };
const page = PEER_QUERIES.find((query) => query.key === (process.env.QUERY ?? 'pages'))!;
const VARY = process.env.VARY === '1';
const NODE_ARGS = (process.env.NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

const simulator = await startSimulator(50, KEY);
// One process: the profile is of the process that answers (a cluster's workers would each write one).
const ours = await startOurs(simulator.url, { WORKERS: '1' }, undefined, [
  '--cpu-prof',
  `--cpu-prof-dir=${DIR}`,
  ...NODE_ARGS,
]);
try {
  const slugs = await leaderboardSlugs(simulator, KEY, ARTISTS);
  const artist = PEER_QUERIES.find((query) => query.key === 'artist')!;
  await (
    await fetch(ours.url, {
      method: 'POST',
      headers: HEADERS,
      body: artist.body('ours', slugs[0]!),
    })
  ).text();
  const run = (seconds: number) =>
    postLoad({
      url: ours.url,
      headers: HEADERS,
      connections: 10,
      seconds,
      bodies: loadBodies(page, 'ours', slugs, VARY),
    });
  await run(3);
  const result = await run(SECONDS);
  console.log(
    `${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`,
  );
} finally {
  await ours.stop();
  await simulator.stop();
}
const file = readdirSync(DIR)
  .filter((name) => name.endsWith('.cpuprofile'))
  .map((name) => join(DIR, name))
  .sort()
  .at(-1)!;
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[] };
const self = new Map<string, number>();
let total = 0;
for (const node of profile.nodes) {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/');
  const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + node.hitCount);
  total += node.hitCount;
}
console.log(file);
for (const [key, hits] of [...self]
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(process.env.TOP ?? 40)))
  console.log(`${((hits / total) * 100).toFixed(1).padStart(5)} %  ${key}`);
