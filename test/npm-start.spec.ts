/**
 * `npm start` with WORKERS=2 and no other configuration: two workers sharing
 * the stores their primary keeps, against the simulator the primary starts.
 * The group prints its addresses once, the simulator's among them, and
 * GraphiQL's first tab opens with an artist the simulator has: its Run
 * answers the page, not NOT_FOUND.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildOnce, type GatewayProcess, startNpm } from './support/npm-start.js';
import { postGraphQL } from './support/stack.js';
import { until } from './support/until.js';

let gateway: GatewayProcess | undefined;

beforeAll(buildOnce, 180_000);
afterAll(() => gateway?.kill());

it('with WORKERS=2: prints its addresses once, and GraphiQL’s first tab finds its artist', async () => {
  gateway = await startNpm({ LOG_LEVEL: 'info', WORKERS: '2' });
  await until(() => (gateway!.output().match(/"msg":"gateway listening"/g)?.length ?? 0) === 2);
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
