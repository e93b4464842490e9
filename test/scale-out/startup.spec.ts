/**
 * Refusals at start: a configured Redis or cluster that cannot be reached,
 * several workers without Redis, and what REDIS_CLUSTER_NODES and the
 * replica acknowledgement settings accept.
 */
import { availableParallelism, totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { autoWorkers } from '../../src/worker-count.js';
import { freePort } from '../support/redis.js';
import { runToExit } from '../support/replicas.js';

describe('starting with scale-out settings', () => {
  it('exits with status 2 and a clear message when REDIS_URL cannot be reached', async () => {
    const port = await freePort();
    const { code, output } = await runToExit({
      UPSTREAM_URL: 'http://127.0.0.1:9',
      REDIS_URL: `redis://127.0.0.1:${port}/2`,
    });
    expect(code).toBe(2);
    expect(output).toContain(`REDIS_URL: cannot reach Redis at redis://127.0.0.1:${port}/2`);
  });

  it('takes WORKERS above 1 without Redis (the primary keeps the stores), and refuses bad scale-out values', () => {
    expect(loadConfig({ WORKERS: '3' }).scaleOut).toMatchObject({
      workers: 3,
      redisUrl: undefined,
      redisCluster: undefined,
    });
    expect(() => loadConfig({ CLIENT_BUDGET_SHARE: '1.5', REDIS_URL: 'http://x' })).toThrow(
      /REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL\n {2}CLIENT_BUDGET_SHARE: must be at most 1/,
    );
    expect(() => loadConfig({ CLIENT_BUDGET_SHARE: 'half' })).toThrow(
      /CLIENT_BUDGET_SHARE: must be a number such as 0.5/,
    );
    expect(
      loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2', WORKERS: '2' }).scaleOut,
    ).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6379/2',
      workers: 2,
      clientBudgetShare: 0.5,
    });
  });

  it('exits with status 2 and a clear message when no node of REDIS_CLUSTER_NODES answers', async () => {
    const [one, two] = [await freePort(), await freePort()];
    const { code, output } = await runToExit({
      UPSTREAM_URL: 'http://127.0.0.1:9',
      REDIS_CLUSTER_NODES: `redis://:secret@127.0.0.1:${one},redis://:secret@127.0.0.1:${two}`,
    });
    expect(code).toBe(2);
    expect(output).toContain(
      `REDIS_CLUSTER_NODES: cannot reach a Redis Cluster at 127.0.0.1:${one},127.0.0.1:${two}`,
    );
    expect(output).not.toContain('secret');
  });
});

describe('REDIS_CLUSTER_NODES', () => {
  it('reads seed nodes as host:port, or as URLs that carry TLS and credentials alike', () => {
    expect(
      loadConfig({ REDIS_CLUSTER_NODES: ' 10.0.0.1:6379, redis-b.internal:7000 ,[::1]:7001' })
        .scaleOut.redisCluster,
    ).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 6379 },
        { host: 'redis-b.internal', port: 7000 },
        { host: '::1', port: 7001 },
      ],
      tls: false,
      username: undefined,
      password: undefined,
    });
    expect(
      loadConfig({
        REDIS_CLUSTER_NODES:
          'rediss://gateway:p%40ss@a.example:6379,rediss://gateway:p%40ss@b.example:6379',
      }).scaleOut.redisCluster,
    ).toMatchObject({ tls: true, username: 'gateway', password: 'p@ss' });
  });

  it('refuses what is not a seed list, seeds given differently, and a database', () => {
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis-a' })).toThrow(
      /REDIS_CLUSTER_NODES: "redis-a" must name a host and a port, as host:port/,
    );
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'a:6379,rediss://b:6379' })).toThrow(
      /REDIS_CLUSTER_NODES: every node must be given alike/,
    );
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'redis://a:6379/2' })).toThrow(
      /REDIS_CLUSTER_NODES: "redis:\/\/a:6379\/2": a cluster has no databases/,
    );
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'http://a:6379' })).toThrow(
      /must be host:port, redis:\/\/ or rediss:\/\//,
    );
    // A password is never repeated in a message.
    expect(() =>
      loadConfig({ REDIS_CLUSTER_NODES: 'redis://:hunter2@a:6379,redis://:other@b:6379' }),
    ).toThrow(/^(?![\s\S]*hunter2)[\s\S]*every node must be given alike/);
  });

  it('is exclusive with REDIS_URL, keeps braces out of the key prefix, and serves several workers', () => {
    expect(() =>
      loadConfig({ REDIS_CLUSTER_NODES: 'a:6379', REDIS_URL: 'redis://127.0.0.1:6379' }),
    ).toThrow(/REDIS_CLUSTER_NODES: is set with REDIS_URL; set one of them/);
    expect(() =>
      loadConfig({ REDIS_CLUSTER_NODES: 'a:6379', REDIS_KEY_PREFIX: '{gateway}:' }),
    ).toThrow(/REDIS_KEY_PREFIX: must not contain \{ or \} with REDIS_CLUSTER_NODES/);
    // With one Redis a brace decides nothing.
    expect(
      loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: '{gateway}:' }).scaleOut
        .redisKeyPrefix,
    ).toBe('{gateway}:');
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'a:6379', WORKERS: '4' }).scaleOut.workers).toBe(4);
  });

  it('runs one process per core by default, with Redis or without, as many as the memory holds', () => {
    const memory = Math.min(totalmem(), process.constrainedMemory?.() || totalmem());
    const cores = autoWorkers(availableParallelism(), memory);
    expect(loadConfig({}).scaleOut.workers).toBe(cores);
    expect(loadConfig({ WORKERS: 'auto' }).scaleOut.workers).toBe(cores);
    const MiB = 1024 * 1024;
    // A container of 512 MiB runs one process; a gigabyte two workers; a large machine one per core, up to 64.
    expect(autoWorkers(2, 512 * MiB)).toBe(1);
    expect(autoWorkers(16, 1024 * MiB)).toBe(2);
    expect(autoWorkers(2, 24 * 1024 * MiB)).toBe(2);
    expect(autoWorkers(128, 1024 * 1024 * MiB)).toBe(64);
    expect(autoWorkers(1, 100 * MiB)).toBe(1);
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).scaleOut.workers).toBe(cores);
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'a:6379', WORKERS: ' AUTO ' }).scaleOut.workers).toBe(
      cores,
    );
    for (const bad of ['0', '65', 'two', '1.5', '-1'])
      expect(() => loadConfig({ WORKERS: bad })).toThrow(
        /WORKERS: must be auto or a whole number from 1 to 64/,
      );
  });

  it("gives each worker its share of the machine's memory bounds", () => {
    const bounds = {
      CACHE_MAX_ENTRIES: '1000',
      CACHE_MAX_BYTES: '3000000',
      RESPONSE_CACHE_MAX_BYTES: '2000',
      CONCURRENT_ANSWERS: '3',
      REQUEST_BODIES_TOTAL_BYTES: '9000',
      ANSWER_BACKLOG_TOTAL_BYTES: '6000',
      SUBSCRIBER_BACKLOG_TOTAL_BYTES: '3000',
      REDIS_URL: 'redis://127.0.0.1:6379',
    };
    const one = loadConfig({ ...bounds, WORKERS: '1' });
    const four = loadConfig({ ...bounds, WORKERS: '4' });
    expect(four.cache).toMatchObject({ maxEntries: 250, maxBytes: 750_000 });
    // Never below what the variable itself accepts.
    expect(four.cache.responseMaxBytes).toBe(1_024);
    expect(four.memory).toEqual({
      concurrentAnswers: 1,
      requestBodiesBytes: 2_250,
      answerBacklogBytes: 1_500,
      subscriberBacklogTotalBytes: 750,
    });
    expect(one.cache).toMatchObject({
      maxEntries: 1_000,
      maxBytes: 3_000_000,
      responseMaxBytes: 2_000,
    });
    expect(one.memory.concurrentAnswers).toBe(3);
  });

  it('waits for one replica per reservation on a cluster and for none on one Redis, unless told', () => {
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'a:6379' }).scaleOut.redisDurability).toEqual({
      replicas: 1,
      timeoutMs: 100,
    });
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).scaleOut.redisDurability).toEqual({
      replicas: 0,
      timeoutMs: 100,
    });
    expect(
      loadConfig({
        REDIS_URL: 'redis://127.0.0.1:6379',
        REDIS_WAIT_REPLICAS: '2',
        REDIS_WAIT_TIMEOUT_MS: '250',
      }).scaleOut.redisDurability,
    ).toEqual({ replicas: 2, timeoutMs: 250 });
    expect(
      loadConfig({ REDIS_CLUSTER_NODES: 'a:6379', REDIS_WAIT_REPLICAS: '0' }).scaleOut
        .redisDurability.replicas,
    ).toBe(0);
    expect(() => loadConfig({ REDIS_WAIT_REPLICAS: '1' })).toThrow(
      /REDIS_WAIT_REPLICAS: is set but neither REDIS_URL nor REDIS_CLUSTER_NODES is/,
    );
    expect(() => loadConfig({ REDIS_URL: 'redis://x:1', REDIS_WAIT_TIMEOUT_MS: '0' })).toThrow(
      /REDIS_WAIT_TIMEOUT_MS: must be at least 1/,
    );
  });
});
