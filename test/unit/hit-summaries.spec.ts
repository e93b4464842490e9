import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HitSummaries } from '../../src/server/answer-parts/hit-summaries.js';
import { hitOperation as operation } from '../../src/server/response-cache/hit-tail.js';

/** A logger whose lines are kept, parsed. */
const captured = () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info', base: { service: 'test' } },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { lines, logger };
};

/** A long enough interval that only the test's own flushes write. */
const BY_HAND = 3_600_000;

describe('HitSummaries', () => {
  const made: HitSummaries[] = [];
  const summaries = (logger: pino.Logger, everyMs = BY_HAND) => {
    const each = new HitSummaries(logger, everyMs);
    made.push(each);
    return each;
  };
  afterEach(() => {
    for (const each of made.splice(0)) each.close();
  });

  it('writes one line per answer and key with its hits counted and the longest duration', () => {
    const { lines, logger } = captured();
    const hits = summaries(logger);
    const artist = hits.lineFor(operation('Artist', 'abcdef0123456789'));
    const now = performance.now();
    artist({ method: 'POST', path: '/graphql', status: 200, startedAt: now - 0.2 });
    artist({ method: 'POST', path: '/graphql', status: 200, startedAt: now - 3.04 });
    artist({ method: 'POST', path: '/graphql', status: 200, startedAt: now });
    expect(lines).toEqual([]);
    hits.flush();
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      level: 30,
      service: 'test',
      msg: 'request',
      method: 'POST',
      path: '/graphql',
      status: 200,
      requests: 3,
      operation: 'Artist',
      key: 'abcdef01',
      upstreamCalls: 0,
      cacheHits: 0,
      deduplicated: 0,
      stale: 0,
      responseCache: 'hit',
    });
    expect(line?.durationMs).toBeGreaterThanOrEqual(3);
    expect(line?.durationMs).toBeLessThan(1_000);
    // The fields of a hit's own line, in its order, with the count after the status.
    expect(Object.keys(line ?? {})).toEqual([
      'level',
      'time',
      'service',
      'method',
      'path',
      'status',
      'requests',
      'durationMs',
      'operation',
      'key',
      'upstreamCalls',
      'cacheHits',
      'deduplicated',
      'stale',
      'responseCache',
      'msg',
    ]);
  });

  it('keeps statuses, keys and answers apart, and starts each count again after its line', () => {
    const { lines, logger } = captured();
    const hits = summaries(logger);
    const one = hits.lineFor(operation('Artist', 'aaaaaaaa11'));
    const other = hits.lineFor(operation('Artist', 'bbbbbbbb22'));
    const chart = hits.lineFor(operation('Chart', 'aaaaaaaa11'));
    const at = performance.now();
    one({ method: 'GET', path: '/graphql', status: 200, startedAt: at });
    one({ method: 'GET', path: '/graphql', status: 304, startedAt: at });
    one({ method: 'GET', path: '/graphql', status: 304, startedAt: at });
    other({ method: 'POST', path: '/graphql', status: 200, startedAt: at });
    chart({ method: 'POST', path: '/graphql', status: 200, startedAt: at });
    hits.flush();
    const counts = lines.map((line) => [line.operation, line.key, line.status, line.requests]);
    expect(counts).toEqual(
      expect.arrayContaining([
        ['Artist', 'aaaaaaaa', 200, 1],
        ['Artist', 'aaaaaaaa', 304, 2],
        ['Artist', 'bbbbbbbb', 200, 1],
        ['Chart', 'aaaaaaaa', 200, 1],
      ]),
    );
    expect(lines).toHaveLength(4);

    // Nothing since: no line. Hits again: counted from zero.
    hits.flush();
    expect(lines).toHaveLength(4);
    one({ method: 'GET', path: '/graphql', status: 304, startedAt: performance.now() });
    hits.flush();
    expect(lines.slice(4)).toEqual([
      expect.objectContaining({ operation: 'Artist', status: 304, requests: 1 }),
    ]);
  });

  it('writes what one method had before the same answer is hit by another', () => {
    const { lines, logger } = captured();
    const hits = summaries(logger);
    const artist = hits.lineFor(operation('Artist', 'cccccccc33'));
    const at = performance.now();
    artist({ method: 'POST', path: '/graphql', status: 200, startedAt: at });
    artist({ method: 'POST', path: '/graphql', status: 200, startedAt: at });
    artist({ method: 'GET', path: '/graphql', status: 200, startedAt: at });
    expect(lines).toEqual([expect.objectContaining({ method: 'POST', requests: 2 })]);
    hits.flush();
    expect(lines.slice(1)).toEqual([expect.objectContaining({ method: 'GET', requests: 1 })]);
  });

  it('sums up on its own every interval, and a last time when closed', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { lines, logger } = captured();
      const hits = new HitSummaries(logger, 1_000);
      const artist = hits.lineFor(operation('Artist', 'dddddddd44'));
      const hit = () =>
        artist({ method: 'POST', path: '/graphql', status: 200, startedAt: performance.now() });
      hit();
      vi.advanceTimersByTime(999);
      expect(lines).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(lines).toEqual([expect.objectContaining({ requests: 1 })]);
      hit();
      hit();
      hits.close();
      expect(lines.slice(1)).toEqual([expect.objectContaining({ requests: 2 })]);
      // Closed: its interval no longer runs.
      hit();
      vi.advanceTimersByTime(5_000);
      expect(lines).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes nothing below the logger level', () => {
    const { lines, logger } = captured();
    logger.level = 'warn';
    const hits = summaries(logger);
    hits.lineFor(operation('Artist', 'eeeeeeee55'))({
      method: 'POST',
      path: '/graphql',
      status: 200,
      startedAt: performance.now(),
    });
    hits.flush();
    expect(lines).toEqual([]);
  });
});
