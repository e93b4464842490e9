/**
 * Several gateway processes on one simulator and one Redis (issue 9), then
 * the same on a Redis Cluster of three primaries and three replicas (issue
 * 31): the cache, single flight, the response cache, the daily budget, the
 * 429 rules, the per-client share and the key registry hold across replicas
 * and restarts. Figures are upstream calls counted at the simulator.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artistsQuery, codes, USAGE, useReplicaDeployment } from '../support/replica-deployment.js';
import { until } from '../support/replicas.js';
import { STORE_KINDS } from '../support/shared-store.js';
import { SERVER_KEY } from '../support/stack.js';

describe.each(STORE_KINDS)('replicas on %s', (kind) => {
  const deployment = useReplicaDeployment(kind);
  const { start, calls, slugs } = deployment;

  describe('one cache and one flight for all replicas', () => {
    it('30 concurrent identical cold queries over 3 replicas cost 1 upstream call', async () => {
      const three = await start(3);
      deployment.simulator.setLatency(300);
      const query = artistsQuery(slugs(0, 1));
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, i) => three[i % 3]!.query(query)),
      );
      expect(calls()).toBe(1);
      for (const response of responses) {
        expect(response.body.errors).toBeUndefined();
        expect(response.body.data).toEqual(responses[0]!.body.data);
      }
    });

    it('an answer one replica gave is a response-cache hit on the others, through Redis', async () => {
      const [first, ...others] = await start(3);
      const query = artistsQuery(slugs(20, 2));
      const cold = await first!.query(query);
      expect(calls()).toBe(2);
      // Asked again: its key's second miss. The replica stores that answer in Redis once the
      // response has finished ('finish'), so the client can hold it before the write lands: ask
      // the others once the answer is shared.
      expect((await first!.query(query)).body.data).toEqual(cold.body.data);
      await until(async () =>
        [...(await deployment.keys()).keys()].some((key) =>
          key.startsWith(`${deployment.prefix}response:`),
        ),
      );
      for (const other of others) {
        const hit = await other.query(query);
        expect(hit.body.data).toEqual(cold.body.data);
        expect(hit.body.extensions?.cost).toMatchObject({ upstreamCalls: 0, responseCache: 'hit' });
      }
      expect(calls()).toBe(2);
    });

    it('a record read by one replica costs 0 on the others', async () => {
      const [first, ...others] = await start(3);
      const query = artistsQuery(slugs(1, 3));
      const cold = await first!.query(query);
      expect(calls()).toBe(3);
      for (const [index, other] of others.entries()) {
        // Another document reading the same records: the upstream cache answers, not the response cache.
        const warm = await other.query(`# warm ${index}\n${query}`);
        expect(warm.body.data).toEqual(cold.body.data);
        expect(warm.body.extensions?.cost).toMatchObject({ upstreamCalls: 0, cacheHits: 3 });
      }
      expect(calls()).toBe(3);
    });
  });

  describe('one daily budget for all replicas', () => {
    it('a limit of 60 is never exceeded by 3 replicas asking for 90 records at once, and apiUsage agrees on all', async () => {
      const three = await start(3, { UPSTREAM_DAILY_LIMIT: '60', CLIENT_BUDGET_SHARE: '1' });
      const batches = Array.from({ length: 9 }, (_, i) => slugs(10 + i * 10, 10));
      const responses = await Promise.all(
        batches.map((batch, i) => three[i % 3]!.query(artistsQuery(batch))),
      );
      expect(calls()).toBe(60);
      const refused = responses.flatMap(codes);
      expect(refused).toHaveLength(30);
      expect(new Set(refused)).toEqual(new Set(['RATE_LIMITED']));
      for (const replica of three) {
        expect((await replica.query(USAGE)).body.data).toEqual({
          apiUsage: { used: 60, remaining: 0 },
        });
      }
    });

    it('a restarted replica remembers the day (Redis) and makes no call past it', async () => {
      const env = { UPSTREAM_DAILY_LIMIT: '5', CLIENT_BUDGET_SHARE: '1' };
      const [first] = await start(1, env);
      await first!.query(artistsQuery(slugs(0, 5)));
      expect(calls()).toBe(5);
      await first!.stop();

      const [second] = await start(1, env);
      expect((await second!.query(USAGE)).body.data).toEqual({
        apiUsage: { used: 5, remaining: 0 },
      });
      expect(codes(await second!.query(artistsQuery(slugs(5, 1))))).toEqual(['RATE_LIMITED']);
      expect(calls()).toBe(5);
    });
  });

  describe('429 from the upstream', () => {
    it('no queued call leaves after a daily-limit 429, and the key stops on every replica', async () => {
      const three = await start(3, { UPSTREAM_MAX_CONCURRENCY: '1', UPSTREAM_RETRIES: '0' });
      deployment.simulator.setLatency(50);
      deployment.simulator.injectFault(
        { kind: 'status', status: 429 },
        { path: '/api/v1/artists/' },
      );
      const first = await three[0]!.query(artistsQuery(slugs(30, 10)));
      expect(codes(first)).toEqual(Array(10).fill('RATE_LIMITED'));
      expect(calls()).toBe(1);

      deployment.simulator.clearFaults();
      for (const replica of three) {
        expect(codes(await replica.query(artistsQuery(slugs(40, 1))))).toEqual(['RATE_LIMITED']);
        expect((await replica.query(USAGE)).body.data).toEqual({
          apiUsage: { used: 1, remaining: 0 },
        });
      }
      expect(calls()).toBe(1);
    });

    it('any other 429 pauses the key for its Retry-After on every replica, then calls resume', async () => {
      const two = await start(2, { UPSTREAM_RETRIES: '0' });
      const slowDown = { statusCode: 429, error: 'Too Many Requests', message: 'Slow down' };
      deployment.simulator.injectFault(
        { kind: 'status', status: 429, retryAfterSeconds: 1, body: slowDown },
        { times: 1 },
      );
      expect(codes(await two[0]!.query(artistsQuery(slugs(50, 1))))).toEqual(['RATE_LIMITED']);
      const paused = await two[1]!.query(artistsQuery(slugs(51, 1)));
      expect(paused.body.errors?.[0]).toMatchObject({
        message: 'The upstream API asked for a pause; retry in 1 s',
        extensions: { code: 'RATE_LIMITED' },
      });
      expect(calls()).toBe(1);

      await until(async () => codes(await two[1]!.query(artistsQuery(slugs(51, 1)))).length === 0);
      expect(calls()).toBe(2);
      expect((await two[0]!.query(USAGE)).body.data).toEqual({
        apiUsage: { used: 2, remaining: 998 },
      });
    });
  });

  describe('fairness between clients in server-key mode', () => {
    it('one client spends at most CLIENT_BUDGET_SHARE of the day over all replicas; another is still served', async () => {
      const two = await start(2, {
        UPSTREAM_DAILY_LIMIT: '20',
        CLIENT_BUDGET_SHARE: '0.5',
        RATE_LIMIT_TRUST_PROXY: 'true',
      });
      const greedy = { 'x-forwarded-for': '203.0.113.7' };
      const first = await two[0]!.query(artistsQuery(slugs(60, 6)), undefined, greedy);
      const second = await two[1]!.query(artistsQuery(slugs(66, 6)), undefined, greedy);
      expect(calls()).toBe(10);
      expect([...codes(first), ...codes(second)]).toEqual(Array(2).fill('RATE_LIMITED'));
      // What the greedy client already read is still served from cache.
      expect(codes(await two[1]!.query(artistsQuery(slugs(60, 6)), undefined, greedy))).toEqual([]);

      const modest = await two[1]!.query(artistsQuery(slugs(72, 3)), undefined, {
        'x-forwarded-for': '198.51.100.9',
      });
      expect(codes(modest)).toEqual([]);
      expect(calls()).toBe(13);
    });
  });

  describe('key registry shared in pass-through mode', () => {
    it('a key the upstream rejected on one replica is refused by the others without a call; an accepted one reads their cache', async () => {
      const two = await start(2, { UPSTREAM_API_KEY: '' });
      const query = artistsQuery(slugs(80, 1));
      const bogus = { authorization: 'Bearer not-a-key' };
      expect((await two[0]!.query(query, undefined, bogus)).status).toBe(401);
      expect(calls()).toBe(1);
      expect((await two[1]!.query(query, undefined, bogus)).status).toBe(401);
      expect(calls()).toBe(1);

      const good = { authorization: `Bearer ${SERVER_KEY}` };
      expect(codes(await two[0]!.query(query, undefined, good))).toEqual([]);
      expect(calls()).toBe(2);
      // Another document reading the same records: the upstream cache answers, not the response cache.
      const warm = await two[1]!.query(`# warm\n${query}`, undefined, good);
      expect(warm.body.extensions?.cost).toMatchObject({ upstreamCalls: 0, cacheHits: 1 });
      expect(calls()).toBe(2);
    });
  });
});

describe('without Redis', () => {
  const deployment = useReplicaDeployment();
  const { start, calls, slugs } = deployment;

  it('without Redis, a restarted gateway remembers the day through BUDGET_FILE', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'gateway-budget-'));
    try {
      const env = {
        REDIS_URL: '',
        UPSTREAM_DAILY_LIMIT: '5',
        CLIENT_BUDGET_SHARE: '1',
        BUDGET_FILE: join(directory, 'day.json'),
      };
      const [first] = await start(1, env);
      await first!.query(artistsQuery(slugs(20, 4)));
      expect(calls()).toBe(4);
      await first!.stop();

      const [second] = await start(1, env);
      expect((await second!.query(USAGE)).body.data).toEqual({
        apiUsage: { used: 4, remaining: 1 },
      });
      const response = await second!.query(artistsQuery(slugs(24, 3)));
      expect(codes(response)).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
      expect(calls()).toBe(5);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
