/**
 * WORKERS=2: two cluster workers on one port, one Redis, one simulator (the
 * primary's embedded one). They share one budget, and a scrape of /metrics,
 * whichever worker answers it, shows both workers' figures added up.
 */

import { get } from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePrometheus, type Sample, total } from '../support/prometheus.js';
import { deleteUnder, SHARED_REDIS_URL, uniquePrefix } from '../support/redis.js';
import { type Replica, startReplica, until } from '../support/replicas.js';

const prefix = uniquePrefix();
let gateway: Replica | undefined;
afterAll(async () => {
  await gateway?.stop('SIGTERM');
  const redis = new Redis(SHARED_REDIS_URL);
  await deleteUnder(redis, prefix);
  redis.disconnect();
});

/**
 * /metrics over a connection of its own: node:cluster hands new connections to the workers in
 * turn, so successive scrapes reach both (a kept-alive one would stay with one worker).
 */
async function scrape(url: string): Promise<Sample[]> {
  const text = await new Promise<string>((resolve, reject) => {
    get(`${url}/metrics`, { agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        response.statusCode === 200
          ? resolve(body)
          : reject(new Error(`/metrics answered ${response.statusCode}`)),
      );
    }).on('error', reject);
  });
  return parsePrometheus(text);
}

describe('WORKERS=2', () => {
  it('starts two workers that share one budget and one /metrics, and ends cleanly on SIGTERM', async () => {
    gateway = await startReplica({
      WORKERS: '2',
      REDIS_URL: SHARED_REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      SIMULATOR_LATENCY_MS: '200',
      LOG_LEVEL: 'info',
    });
    // Enough concurrent connections that both workers take some; single flight holds across them.
    // Each its own document, so that none is a response-cache hit (those are not GraphQL
    // executions, and how many there are would depend on timing).
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        gateway!.query(`# request ${index}\n{ topArtistsByStreams(limit: 3) { rank } }`),
      ),
    );
    for (const response of responses) expect(response.body.errors).toBeUndefined();
    const usage = await gateway.query('{ apiUsage { used } }');
    expect(usage.body.data).toEqual({ apiUsage: { used: 1 } });
    expect(await gateway.ready()).toBe(200);
    // Each worker logs that it listens; the group prints its address once.
    await until(() => gateway!.output().match(/"msg":"gateway listening"/g)?.length === 2);
    expect(gateway.output().match(/GraphQL \+ GraphiQL/g)).toHaveLength(1);
    // Every scrape, whichever worker takes it, counts all 21 GraphQL requests (each worker took
    // some of the 20 connections) and the one upstream call; the shared budget is reported once,
    // not once per worker.
    for (let scrapeIndex = 0; scrapeIndex < 6; scrapeIndex += 1) {
      const samples = await scrape(gateway.url);
      expect(total(samples, 'graphql_envelop_request_duration_count')).toBe(21);
      expect(total(samples, 'gateway_upstream_requests_total')).toBe(1);
      expect(total(samples, 'gateway_upstream_budget_limit')).toBe(1000);
      expect(total(samples, 'gateway_upstream_budget_remaining')).toBe(999);
      // A quantile is one process's: added up over the workers it would mean nothing.
      expect(samples.filter((sample) => 'quantile' in sample.labels)).toEqual([]);
    }
    await gateway.stop('SIGTERM');
    expect(gateway.process.exitCode).toBe(0);
  });
});
