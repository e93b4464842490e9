/**
 * Redis going away in the middle of traffic, on a redis-server of this
 * test's own: no replica crashes, cached answers keep flowing, no call is
 * made that the ledger cannot count, /ready says so, and everything recovers
 * by itself when Redis returns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { freePort, startOwnRedis } from '../support/redis.js';
import { type Replica, startReplica, until } from '../support/replicas.js';
import { SERVER_KEY } from '../support/stack.js';

let simulator: Simulator;
beforeAll(async () => {
  simulator = await startSimulator({ apiKeys: [SERVER_KEY], dailyLimit: 1_000_000 });
});
afterAll(() => simulator.close());

const artist = (slug: string) => `{ artist(slug: "${slug}") { name } }`;

describe('a Redis outage', () => {
  it('keeps cached answers flowing, makes no uncountable call, reports not ready, and recovers', async () => {
    const port = await freePort();
    let redis = await startOwnRedis(port);
    const replicas: Replica[] = [];
    try {
      const env = {
        UPSTREAM_URL: simulator.url,
        UPSTREAM_API_KEY: SERVER_KEY,
        REDIS_URL: redis.url,
        RATE_LIMIT_REQUESTS: '1000',
      };
      replicas.push(...(await Promise.all([startReplica(env), startReplica(env)])));
      const [warm, cold, later] = simulator.data
        .allArtists()
        .slice(0, 3)
        .map((a) => a.slug);
      for (const replica of replicas)
        expect((await replica.query(artist(warm!))).body.errors).toBeUndefined();
      expect(simulator.calls.length).toBe(1);

      await redis.stop();
      for (const replica of replicas) {
        await until(async () => (await replica.ready()) === 503);
        const cached = await replica.query(artist(warm!));
        expect(cached.body.errors).toBeUndefined();
        // A call the shared ledger cannot count is not made: the budget cannot be spent just now.
        const uncountable = await replica.query(artist(cold!));
        expect(uncountable.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
        expect(replica.process.exitCode).toBeNull();
        // The log is written in batches: the line may still be in the replica's buffer.
        await until(() => replica.output().includes('redis down'));
      }
      expect(simulator.calls.length).toBe(1);

      redis = await startOwnRedis(port);
      for (const replica of replicas) await until(async () => (await replica.ready()) === 200);
      const answered = await replicas[1]!.query(artist(later!));
      expect(answered.body.errors).toBeUndefined();
      expect(simulator.calls.length).toBe(2);
      // The restarted Redis lost its data; the replicas told it the day's count back.
      expect((await replicas[0]!.query('{ apiUsage { used } }')).body.data).toEqual({
        apiUsage: { used: 2 },
      });
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()));
      await redis.stop();
    }
  });
});
