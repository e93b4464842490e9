/**
 * `/metrics` after known traffic against the simulator: the upstream request
 * counter adds up to what the simulator saw, status by status; the budget
 * gauge is what `apiUsage` answers; cache hits, misses, single-flight joins
 * and stale answers count what the responses reported.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { REFERENCE_QUERIES } from '../../bench/reference-queries.js';
import { type Sample, scrape, total } from '../support/prometheus.js';
import {
  type GraphQLResponse,
  type Stack,
  type StackOptions,
  startStack,
} from '../support/stack.js';
import { until } from '../support/until.js';

const stacks: Stack[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((stack) => stack.close()));
});
async function stackWith(options: StackOptions = {}): Promise<Stack> {
  const stack = await startStack(options);
  stacks.push(stack);
  return stack;
}

const costOf = (response: GraphQLResponse) =>
  response.body.extensions?.cost as {
    upstreamCalls: number;
    cacheHits: number;
    deduplicated: number;
  };

/** Upstream calls the simulator answered, by status. */
function simulatorStatuses(stack: Stack): Map<string, number> {
  const counts = new Map<string, number>();
  for (const call of stack.simulator.calls)
    counts.set(String(call.status), (counts.get(String(call.status)) ?? 0) + 1);
  return counts;
}

function gatewayStatuses(samples: readonly Sample[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const sample of samples.filter((s) => s.name === 'gateway_upstream_requests_total')) {
    counts.set(sample.labels.status!, (counts.get(sample.labels.status!) ?? 0) + sample.value);
  }
  return counts;
}

describe('/metrics', () => {
  it('counts every upstream request the simulator saw, and reports the budget apiUsage reports', async () => {
    const stack = await stackWith();
    const { slug } = stack.simulator.data.allArtists()[0]!;
    const responses: GraphQLResponse[] = [];
    // Cold, then warm: the second round is answered by the cache.
    for (let round = 0; round < 2; round += 1) {
      for (const reference of REFERENCE_QUERIES)
        responses.push(await stack.query(reference.query, reference.variables?.(slug)));
    }
    // A 404, and a 500 the gateway retries.
    responses.push(await stack.query('{ artist(slug: "nobody-at-all") { name } }'));
    stack.simulator.injectFault(
      { kind: 'status', status: 500 },
      { path: '/api/v1/charts', times: 1 },
    );
    responses.push(await stack.query('{ charts { name } }'));
    responses.push(
      await stack.query('query ($slug: String!) { artist(slug: $slug) { name } }', { slug }),
    );

    const usage = await stack.query('{ apiUsage { remaining used } }');
    const samples = await scrape(`${stack.url}/metrics`);

    const sent = stack.upstreamCalls();
    expect(sent).toBeGreaterThan(10);
    expect(total(samples, 'gateway_upstream_requests_total')).toBe(sent);
    expect(gatewayStatuses(samples)).toEqual(simulatorStatuses(stack));
    expect(gatewayStatuses(samples).get('500')).toBe(1);
    expect(gatewayStatuses(samples).get('404')).toBe(1);
    expect(total(samples, 'gateway_upstream_request_duration_seconds_count')).toBe(sent);
    // Endpoints are resource names, never paths.
    const endpoints = new Set(
      samples
        .filter((s) => s.name === 'gateway_upstream_requests_total')
        .map((s) => s.labels.endpoint),
    );
    expect(endpoints).toContain('charts');
    for (const endpoint of endpoints) expect(endpoint).not.toContain('/');

    const apiUsage = usage.body.data?.apiUsage as { remaining: number; used: number } | undefined;
    expect(apiUsage?.used).toBe(sent);
    expect(total(samples, 'gateway_upstream_budget_remaining')).toBe(apiUsage?.remaining);
    expect(total(samples, 'gateway_upstream_budget_limit')).toBe(1000);
    expect(total(samples, 'gateway_upstream_budget_spent_total')).toBe(sent);

    const hits = responses.reduce((sum, response) => sum + costOf(response).cacheHits, 0);
    expect(hits).toBeGreaterThan(0);
    // The metric counts lookups: a read that finds, under its single-flight lease, what another
    // request just stored is a hit there, and a deduplicated read in the response.
    const deduplicated = responses.reduce(
      (sum, response) => sum + costOf(response).deduplicated,
      0,
    );
    const l1Hits = total(samples, 'gateway_cache_hits_total', { level: 'l1' });
    expect(l1Hits).toBeGreaterThanOrEqual(hits);
    expect(l1Hits).toBeLessThanOrEqual(hits + deduplicated);
    // Every new upstream read missed the cache first (a retry is the same read).
    expect(total(samples, 'gateway_cache_misses_total', { level: 'l1' })).toBeGreaterThanOrEqual(
      sent - 1,
    );
    expect(total(samples, 'gateway_single_flight_joins_total')).toBe(0);
    // The plugin's GraphQL histograms share the registry.
    expect(total(samples, 'graphql_envelop_phase_execute_count')).toBeGreaterThan(0);
  });

  it('counts a read that joins another request’s call in flight', async () => {
    const stack = await stackWith();
    const { slug } = stack.simulator.data.allArtists()[1]!;
    const query = 'query ($slug: String!) { artist(slug: $slug) { name } }';
    stack.simulator.injectFault(
      { kind: 'delay', ms: 1_500 },
      { path: `/api/v1/artists/${slug}`, times: 1 },
    );
    const first = stack.query(query, { slug });
    await until(() => stack.simulator.calls.length === 1, 5);
    const second = stack.query(query, { slug });
    await Promise.all([first, second]);

    const samples = await scrape(`${stack.url}/metrics`);
    expect(stack.upstreamCalls()).toBe(1);
    expect(total(samples, 'gateway_single_flight_joins_total', { endpoint: 'artist' })).toBe(1);
    expect(total(samples, 'gateway_upstream_requests_total')).toBe(1);
  });

  it('counts a stale answer served while the upstream is down', async () => {
    // A TTL of 0: every entry is past its freshness at once, but may stand in for a failing upstream.
    const stack = await stackWith({
      gateway: {
        retries: 0,
        cache: {
          ttlMs: 0,
          notFoundTtlMs: 0,
          retentionMs: 60_000,
          maxEntries: 100,
          maxBytes: 1e7,
        },
      },
    });
    await stack.query('{ charts { name } }');
    await stack.simulator.stop();
    const stale = await stack.query('{ charts { name } }');
    expect(stale.body.extensions?.stale).toHaveLength(1);

    const samples = await scrape(`${stack.url}/metrics`);
    expect(total(samples, 'gateway_stale_answers_total', { endpoint: 'charts' })).toBe(1);
    expect(total(samples, 'gateway_upstream_requests_total', { status: 'error' })).toBe(1);
    expect(total(samples, 'gateway_upstream_requests_total', { status: '200' })).toBe(1);
  });

  it('reports each pass-through key under its hash, never the key', async () => {
    const stack = await stackWith({ passThrough: true });
    const headers = { authorization: 'Bearer test-client-key' };
    await stack.query('{ charts { name } }', undefined, headers);
    const usage = await stack.query('{ apiUsage { remaining } }', undefined, headers);
    const response = await fetch(`${stack.url}/metrics`);
    const text = await response.text();
    expect(text).not.toContain('test-client-key');
    const remaining = (await scrape(`${stack.url}/metrics`)).filter(
      (s) => s.name === 'gateway_upstream_budget_remaining',
    );
    expect(remaining).toHaveLength(1);
    expect(remaining[0]!.labels.key).toMatch(/^[0-9a-f]{8}$/);
    const apiUsage = usage.body.data?.apiUsage as { remaining: number } | undefined;
    expect(remaining[0]!.value).toBe(apiUsage?.remaining);
  });
});
