/** WORKERS=2: two cluster workers on one port, one Redis, one simulator (the primary's embedded one). */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
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

describe('WORKERS=2', () => {
  it('starts two workers that share one budget, and ends cleanly on SIGTERM', async () => {
    gateway = await startReplica({
      WORKERS: '2',
      REDIS_URL: SHARED_REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      SIMULATOR_LATENCY_MS: '200',
    });
    const query = '{ topArtistsByStreams(limit: 3) { rank } }';
    // Enough concurrent connections that both workers take some; single flight holds across them.
    const responses = await Promise.all(Array.from({ length: 20 }, () => gateway!.query(query)));
    for (const response of responses) expect(response.body.errors).toBeUndefined();
    const usage = await gateway.query('{ apiUsage { used } }');
    expect(usage.body.data).toEqual({ apiUsage: { used: 1 } });
    expect(await gateway.ready()).toBe(200);
    // Each worker prints its banner once it listens.
    await until(() => gateway!.output().match(/GraphQL \+ GraphiQL/g)?.length === 2);
    await gateway.stop('SIGTERM');
    expect(gateway.process.exitCode).toBe(0);
  });
});
