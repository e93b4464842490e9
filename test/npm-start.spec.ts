/**
 * `npm start` with no configuration, as a newcomer runs it: one worker per
 * core as the memory allows (WORKERS=auto) against the simulator the primary starts. The group
 * prints its addresses once, the simulator's among them, and GraphiQL's
 * first tab opens with an artist the simulator has: its Run answers the
 * page, not NOT_FOUND.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { buildOnce, type GatewayProcess, startNpm, statusOf } from './support/npm-start.js';
import { postGraphQL } from './support/stack.js';
import { until } from './support/until.js';

let gateway: GatewayProcess | undefined;
let group: GatewayProcess | undefined;

beforeAll(buildOnce, 180_000);
// Here rather than in a test's own `finally`, which a test past its timeout never reaches.
afterAll(() => Promise.all([gateway?.kill(), group?.kill()]));

it('runs one worker per core, prints its addresses once, and GraphiQL’s first tab finds its artist', async () => {
  gateway = await startNpm({ LOG_LEVEL: 'info' });
  // One per core, as many as the machine's memory holds: what `WORKERS=auto` makes of this machine.
  const { workers } = loadConfig({}).scaleOut;
  await until(
    () => (gateway!.output().match(/"msg":"gateway listening"/g)?.length ?? 0) === workers,
  );
  const output = gateway.output();
  expect(output.match(/GraphQL \+ GraphiQL/g)).toHaveLength(1);
  expect(output).toMatch(/Upstream simulator +http:\/\/127\.0\.0\.1:\d+\/api\/v1/);
  expect(output).toMatch(/New milestone +curl -X POST http:\/\/127\.0\.0\.1:\d+\//);

  const base = gateway.url.replace(/\/graphql$/, '');
  const page = await (await fetch(gateway.url, { headers: { accept: 'text/html' } })).text();
  // The tabs travel as JSON inside the page's script: the ArtistPage tab's variables, escaped.
  const slug = /\\"slug\\": \\"([^"\\]+)\\"/.exec(page)?.[1];
  expect(slug).toBeDefined();
  const answer = await postGraphQL(
    base,
    'query ArtistPage($slug: String!) { artist(slug: $slug) { slug name } }',
    { slug },
  );
  expect(answer.body.errors).toBeUndefined();
  expect(answer.body.data).toMatchObject({ artist: { slug } });
}, 120_000);

it('passes on its workers’ log lines whole: each request’s line once, as JSON, from both workers', async () => {
  const started = await startNpm({
    LOG_LEVEL: 'info',
    WORKERS: '2',
    RATE_LIMIT_REQUESTS: '0',
    GRAPHQL_MAX_REQUEST_BYTES: String(1024 * 1024),
  });
  group = started;
  await until(() => (started.output().match(/"msg":"gateway listening"/g)?.length ?? 0) === 2);
  // Lines longer than what the primary reads from a pipe at once, from two writers at once: a
  // relay that passed chunks on as they came would splice one worker's half into the other's.
  // All of them well within what the log holds for a slow reader, where it would drop lines.
  const names = Array.from({ length: 24 }, (_, i) => `Whole${i}_${'x'.repeat(100_000)}`);
  const statuses = await Promise.all(
    names.map((name) => statusOf(started.url, `query ${name} { __typename }`)),
  );
  expect(statuses.filter((status) => status !== 200)).toEqual([]);
  // Stdout alone: a line of stderr (npm's, a warning) read between two chunks of one stdout line
  // would cut it in the text the two streams make together, though the gateway cut nothing.
  // Ended lines only: a long line's write reaches the pipe in parts, its end maybe still to come.
  const endedLines = () =>
    started
      .stdout()
      .split('\n')
      .slice(0, -1)
      .filter((line) => line.includes('"operation":"Whole'));
  await until(() => endedLines().length >= names.length);
  const lines = endedLines();
  const parsed = lines.map((line) => {
    try {
      return JSON.parse(line) as { operation: string; worker: number };
    } catch {
      throw new Error(
        `a log line is not whole JSON: ${line.slice(0, 200)}… (${line.length} characters); stderr: ${started.stderr().slice(0, 2_000)}`,
      );
    }
  });
  expect(parsed.map((line) => line.operation).sort()).toEqual([...names].sort());
  expect(new Set(parsed.map((line) => line.worker))).toEqual(new Set([1, 2]));
}, 120_000);
