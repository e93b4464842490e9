/** Response-cache hits in the request log: summed up a second at a time, or a line each. */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../../src/gateway/gateway-config.js';
import { type Stack, startStack } from '../support/stack.js';

interface Line {
  readonly msg?: string;
  readonly operation?: string;
  readonly responseCache?: string;
  readonly requests?: number;
  readonly [field: string]: unknown;
}

const QUERY = 'query HitLogTop { topSongs(limit: 3) { rank } }';
const HITS = 20;

describe('the request log of response-cache hits', () => {
  const stacks: Stack[] = [];
  afterEach(async () => {
    await Promise.all(stacks.splice(0).map((stack) => stack.close()));
  });

  /** A gateway whose log lines are kept, parsed; its answer to QUERY stored, and HITS hits of it. */
  async function hitsLogged(cacheHitLog?: GatewayOptions['cacheHitLog']) {
    const lines: Line[] = [];
    const sink = new Writable({
      write(chunk, _, done) {
        lines.push(JSON.parse(String(chunk)) as Line);
        done();
      },
    });
    const stack = await startStack({
      gateway: {
        logger: pino({ level: 'info' }, sink),
        ...(cacheHitLog === undefined ? {} : { cacheHitLog }),
      },
    });
    stacks.push(stack);
    // Stored at its second miss; every request after it is a hit.
    for (let miss = 0; miss < 2; miss += 1) await stack.query(QUERY);
    const answers = await Promise.all(Array.from({ length: HITS }, () => stack.query(QUERY)));
    for (const answer of answers)
      expect(answer.body.extensions?.cost).toMatchObject({ responseCache: 'hit' });
    const hitLines = () =>
      lines.filter((line) => line.operation === 'HitLogTop' && line.responseCache === 'hit');
    return { stack, lines, hitLines };
  }

  it('sums hits up by default: their count and the longest duration, in the line a hit would write', async () => {
    const { lines, hitLines } = await hitsLogged();
    await expect
      .poll(() => hitLines().reduce((sum, line) => sum + (line.requests ?? 0), 0), {
        timeout: 10_000,
      })
      .toBe(HITS);
    // Twenty hits at once fall in one second, or two.
    expect(hitLines().length).toBeLessThanOrEqual(2);
    for (const line of hitLines()) {
      expect(line).toMatchObject({
        msg: 'request',
        method: 'POST',
        path: '/graphql',
        status: 200,
        upstreamCalls: 0,
        responseCache: 'hit',
      });
      expect(line.requests).toBeGreaterThan(0);
      expect(typeof line.durationMs).toBe('number');
      expect(line.key).toMatch(/^[0-9a-f]{8}$/);
    }
    // The misses keep a line each, without a count.
    const misses = lines.filter(
      (line) => line.operation === 'HitLogTop' && line.responseCache !== 'hit',
    );
    expect(misses).toHaveLength(2);
    expect(misses.every((line) => line.requests === undefined)).toBe(true);
  });

  it('writes the last summary when the gateway closes', async () => {
    const { stack, hitLines } = await hitsLogged();
    await stack.close();
    stacks.splice(stacks.indexOf(stack), 1);
    expect(hitLines().reduce((sum, line) => sum + (line.requests ?? 0), 0)).toBe(HITS);
  });

  it('gives each hit its own line with LOG_CACHE_HITS=each', async () => {
    const { hitLines } = await hitsLogged('each');
    await expect.poll(() => hitLines().length, { timeout: 10_000 }).toBe(HITS);
    expect(hitLines().every((line) => line.requests === undefined)).toBe(true);
  });
});
