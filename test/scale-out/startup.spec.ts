/** Refusals at start: a configured Redis that cannot be reached, and several workers without Redis. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
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

  it('refuses WORKERS above 1 without REDIS_URL, and bad scale-out values', () => {
    expect(() => loadConfig({ WORKERS: '3' })).toThrow(/WORKERS: more than 1 needs REDIS_URL/);
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
});
