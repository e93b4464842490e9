import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { ConfigError } from '../src/config-error.js';

/** The bounds as one process holds them: by default they are the machine's, shared by its workers. */
const ONE_PROCESS = { WORKERS: '1' } as const;

describe('configuration from the environment', () => {
  it('defaults to the embedded simulator on port 4000, an hourly refresh poll and a 48 h cache bound', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 4000,
      upstreamUrl: undefined,
      upstreamApiKey: undefined,
      dailyLimit: 1000,
      cache: { ttlMs: 48 * 3600 * 1000, notFoundTtlMs: 600_000 },
      refreshPollMs: 3600 * 1000,
    });
  });

  it('REFRESH_POLL_SECONDS: at least 1, at most a day', () => {
    expect(loadConfig({ REFRESH_POLL_SECONDS: '1' }).refreshPollMs).toBe(1000);
    expect(() => loadConfig({ REFRESH_POLL_SECONDS: '0' })).toThrow(
      'REFRESH_POLL_SECONDS: must be at least 1',
    );
    expect(() => loadConfig({ REFRESH_POLL_SECONDS: '86401' })).toThrow(
      'REFRESH_POLL_SECONDS: must be at most 86400',
    );
    expect(() => loadConfig({ REFRESH_POLL_SECONDS: 'hourly' })).toThrow(
      'REFRESH_POLL_SECONDS: must be a whole number',
    );
  });

  it('reads every documented variable', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '8080',
      UPSTREAM_URL: 'https://api.example.com/base',
      UPSTREAM_API_KEY: 'k',
      UPSTREAM_DAILY_LIMIT: '5000',
      CACHE_TTL_SECONDS: '60',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      upstreamUrl: 'https://api.example.com/base',
      upstreamApiKey: 'k',
      dailyLimit: 5000,
      cache: { ttlMs: 60_000 },
      logLevel: 'warn',
    });
  });

  it('the budget plan: on by default with a burst of 2 % of the limit; its settings are checked', () => {
    expect(loadConfig({}).budgetPlan).toEqual({ headShare: 0.3, burst: 20 });
    expect(loadConfig({ UPSTREAM_DAILY_LIMIT: '100' }).budgetPlan).toEqual({
      headShare: 0.3,
      burst: 8,
    });
    expect(loadConfig({ BUDGET_HEAD_SHARE: '0.25', BUDGET_BURST_CALLS: '40' }).budgetPlan).toEqual({
      headShare: 0.25,
      burst: 40,
    });
    expect(loadConfig({ BUDGET_PLAN: 'false' }).budgetPlan).toBeUndefined();
    expect(loadConfig({ CACHE_RETENTION_SECONDS: '86400' }).cache.retentionMs).toBe(86_400_000);
    expect(() =>
      loadConfig({
        BUDGET_PLAN: 'sometimes',
        BUDGET_HEAD_SHARE: '1.5',
        BUDGET_BURST_CALLS: '0',
        CACHE_RETENTION_SECONDS: '10',
      }),
    ).toThrow(
      new ConfigError(
        [
          'Invalid configuration:',
          '  CACHE_RETENTION_SECONDS: must be at least 60',
          '  BUDGET_PLAN: must be true or false',
          '  BUDGET_HEAD_SHARE: must be at most 1',
          '  BUDGET_BURST_CALLS: must be at least 1',
        ].join('\n'),
      ),
    );
  });

  it('SUBSCRIPTIONS_PER_CLIENT: 10 by default, a whole number from 1', () => {
    expect(loadConfig({}).protection.subscriptionsPerClient).toBe(10);
    expect(loadConfig({ SUBSCRIPTIONS_PER_CLIENT: '3' }).protection.subscriptionsPerClient).toBe(3);
    expect(() => loadConfig({ SUBSCRIPTIONS_PER_CLIENT: '0' })).toThrow(
      /SUBSCRIPTIONS_PER_CLIENT: must be at least 1/,
    );
  });

  it('SUBSCRIBER_BACKLOG_BYTES: 1 MiB by default, a whole number from 1024', () => {
    expect(loadConfig({}).protection.subscriberBacklogBytes).toBe(1_048_576);
    expect(
      loadConfig({ SUBSCRIBER_BACKLOG_BYTES: '65536' }).protection.subscriberBacklogBytes,
    ).toBe(65_536);
    expect(() => loadConfig({ SUBSCRIBER_BACKLOG_BYTES: '100' })).toThrow(
      /SUBSCRIBER_BACKLOG_BYTES: must be at least 1024/,
    );
  });

  it('RESPONSE_COMPRESSION: on from 1 KiB by default; off, or another threshold, on request', () => {
    expect(loadConfig({}).compression).toEqual({ minBytes: 1024 });
    expect(loadConfig({ RESPONSE_COMPRESSION: 'false' }).compression).toBe(false);
    expect(loadConfig({ RESPONSE_COMPRESSION_MIN_BYTES: '0' }).compression).toEqual({
      minBytes: 0,
    });
    expect(() => loadConfig({ RESPONSE_COMPRESSION: 'gzip' })).toThrow(
      /RESPONSE_COMPRESSION: must be true or false/,
    );
    expect(() => loadConfig({ RESPONSE_COMPRESSION_MIN_BYTES: '-1' })).toThrow(
      /RESPONSE_COMPRESSION_MIN_BYTES/,
    );
  });

  it('the memory bounds: 16 answers at once, 16 MiB of request bodies, of answer and of subscriber backlogs', () => {
    const MiB = 1024 * 1024;
    expect(loadConfig(ONE_PROCESS).memory).toEqual({
      concurrentAnswers: 16,
      requestBodiesBytes: 16 * MiB,
      answerBacklogBytes: 16 * MiB,
      subscriberBacklogTotalBytes: 16 * MiB,
    });
    expect(
      loadConfig({
        ...ONE_PROCESS,
        CONCURRENT_ANSWERS: '64',
        REQUEST_BODIES_TOTAL_BYTES: '1048576',
        ANSWER_BACKLOG_TOTAL_BYTES: '2097152',
        SUBSCRIBER_BACKLOG_TOTAL_BYTES: '4194304',
      }).memory,
    ).toEqual({
      concurrentAnswers: 64,
      requestBodiesBytes: MiB,
      answerBacklogBytes: 2 * MiB,
      subscriberBacklogTotalBytes: 4 * MiB,
    });
    expect(loadConfig({}).client.maxBodyBytes).toBe(MiB);
    expect(() => loadConfig({ CONCURRENT_ANSWERS: '0' })).toThrow(
      /CONCURRENT_ANSWERS: must be at least 1/,
    );
    expect(() => loadConfig({ SUBSCRIBER_BACKLOG_TOTAL_BYTES: '16MiB' })).toThrow(
      /SUBSCRIBER_BACKLOG_TOTAL_BYTES: must be a whole number/,
    );
    expect(() => loadConfig({ REQUEST_BODIES_TOTAL_BYTES: '100' })).toThrow(
      /REQUEST_BODIES_TOTAL_BYTES: must be at least 1024/,
    );
    expect(() => loadConfig({ ANSWER_BACKLOG_TOTAL_BYTES: '' })).toThrow(
      /ANSWER_BACKLOG_TOTAL_BYTES: must be a whole number/,
    );
  });

  it('GRAPHIQL: the page is served by default; false turns it off', () => {
    expect(loadConfig({}).graphiql).toBe(true);
    expect(loadConfig({ GRAPHIQL: 'false' }).graphiql).toBe(false);
    expect(loadConfig({ GRAPHIQL: '0' }).graphiql).toBe(false);
    expect(() => loadConfig({ GRAPHIQL: 'off' })).toThrow(/GRAPHIQL: must be true or false/);
  });

  it('names every bad value with its reason, all at once', () => {
    expect(() =>
      loadConfig({
        PORT: '70000',
        UPSTREAM_URL: 'ftp://x',
        CACHE_TTL_SECONDS: 'soon',
        LOG_LEVEL: 'loud',
        UPSTREAM_RETRIES: '-1',
      }),
    ).toThrow(
      new ConfigError(
        [
          'Invalid configuration:',
          '  PORT: must be at most 65535',
          '  UPSTREAM_URL: must be an http or https URL',
          '  UPSTREAM_RETRIES: must be a whole number',
          '  CACHE_TTL_SECONDS: must be a whole number',
          "  LOG_LEVEL: Invalid enum value. Expected 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent', received 'loud'",
        ].join('\n'),
      ),
    );
  });

  it('refuses a server key without an upstream URL', () => {
    expect(() => loadConfig({ UPSTREAM_API_KEY: 'k' })).toThrow(
      /UPSTREAM_API_KEY: is set but UPSTREAM_URL is not/,
    );
  });
});

describe('SHUTDOWN_TIMEOUT_MS', () => {
  it('defaults to 10 s and reads whole milliseconds', () => {
    expect(loadConfig({}).shutdownTimeoutMs).toBe(10_000);
    expect(loadConfig({ SHUTDOWN_TIMEOUT_MS: '2500' }).shutdownTimeoutMs).toBe(2_500);
  });

  it('refuses a value that is not a whole number of milliseconds up to ten minutes', () => {
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: '1.5' })).toThrow(
      /SHUTDOWN_TIMEOUT_MS: must be a whole number/,
    );
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: '600001' })).toThrow(
      /SHUTDOWN_TIMEOUT_MS: must be at most 600000/,
    );
  });
});

describe('RESPONSE_CACHE_MAX_BYTES', () => {
  it('defaults to 32 MiB, apart from CACHE_MAX_BYTES (96 MiB), and reads whole bytes', () => {
    expect(loadConfig(ONE_PROCESS).cache).toMatchObject({
      maxBytes: 96 * 1024 * 1024,
      responseMaxBytes: 32 * 1024 * 1024,
    });
    expect(
      loadConfig({ ...ONE_PROCESS, RESPONSE_CACHE_MAX_BYTES: '1048576' }).cache.responseMaxBytes,
    ).toBe(1_048_576);
  });

  it('refuses what is not a whole number of at least 1 KiB', () => {
    expect(() => loadConfig({ RESPONSE_CACHE_MAX_BYTES: '64MB' })).toThrow(
      /RESPONSE_CACHE_MAX_BYTES: must be a whole number/,
    );
    expect(() => loadConfig({ RESPONSE_CACHE_MAX_BYTES: '100' })).toThrow(
      /RESPONSE_CACHE_MAX_BYTES: must be at least 1024/,
    );
  });
});
