import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fieldLines, type LineField, numberLines } from '../../src/log-lines.js';
import { createLogger } from '../../src/logger.js';
import { logRequest, type RequestLogFields } from '../../src/server/answer-parts/request-log.js';

/** A destination that keeps each line pino (or a line made once) hands it. */
const capture = () => {
  const lines: string[] = [];
  return { lines, write: (line: string) => lines.push(line) };
};

const FIELDS: readonly LineField[] = [
  ['method', 'POST'],
  ['path', '/graphql'],
  'status',
  'durationMs',
  ['operation', 'Top "20" \\ \u00e9\u4e2d \ud83c\udfb5'],
  ['key', 'abcd1234'],
  ['nothing', null],
  ['skipped', undefined],
  ['cached', true],
  ['long', 'x'.repeat(150)],
  ['control', 'a\nb\tc'],
  ['lone', 'a\ud800b'],
  'upstreamCalls',
];
const NUMBERS: readonly (number | undefined)[][] = [
  [200, 0.3, 0],
  [304, 12.5, 3],
  [200, undefined, 1],
  [500, Number.NaN, Number.POSITIVE_INFINITY],
  [200, -1, 1234567.8],
];

/** The object pino would be given for `numbers`: the number fields take them in order. */
function objectOf(numbers: readonly (number | undefined)[]) {
  const names = FIELDS.filter((field): field is string => typeof field === 'string');
  return Object.fromEntries(
    FIELDS.map((field) =>
      typeof field === 'string' ? [field, numbers[names.indexOf(field)]] : field,
    ),
  );
}

/** The lines pino writes for NUMBERS, and those fieldLines writes, on two loggers made alike. */
function bothWays(make: (out: ReturnType<typeof capture>) => pino.Logger) {
  const byPino = capture();
  const logger = make(byPino);
  for (const numbers of NUMBERS) logger.info(objectOf(numbers), 'request');
  const byLines = capture();
  const line = fieldLines(make(byLines), FIELDS, 'request');
  for (const numbers of NUMBERS) line(numbers);
  return { byPino: byPino.lines, byLines: byLines.lines, direct: line.direct };
}

// A fixed clock: the two ways' lines are compared byte for byte.
const fixedTime = { timestamp: () => ',"time":1795981916199' };

describe('fieldLines', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date() });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("writes the gateway's own logger's lines itself, byte for byte as pino writes them", () => {
    // The gateway's own options: its clock is Date's, held still while both ways write.
    const { byPino, byLines, direct } = bothWays((out) => createLogger('info', out));
    expect(byLines).toEqual(byPino);
    expect(byLines).toHaveLength(NUMBERS.length);
    expect(JSON.parse(byLines[1]!)).toMatchObject({
      status: 304,
      durationMs: 12.5,
      msg: 'request',
    });
    expect(direct).toBe(true);
  });

  it('writes as pino writes for a plain logger, redaction of its fixed fields included', () => {
    const { byPino, byLines, direct } = bothWays((out) =>
      pino({ ...fixedTime, base: { service: 'x' }, redact: ['key', 'operation'] }, out),
    );
    expect(byLines).toEqual(byPino);
    expect(byLines[0]).toContain('"key":"[Redacted]"');
    expect(direct).toBe(true);
  });

  it('leaves to pino the lines it would write otherwise', () => {
    for (const options of [
      { mixin: () => ({ traceId: 't' }) },
      { formatters: { log: (object: Record<string, unknown>) => ({ ...object, extra: 1 }) } },
      { hooks: { streamWrite: (line: string) => line.replace('request', 'REQUEST') } },
      { msgPrefix: '[gateway] ' },
      { serializers: { durationMs: (value: number) => Math.round(value) } },
      { redact: ['durationMs'] },
    ]) {
      const { byPino, byLines, direct } = bothWays((out) =>
        pino({ ...fixedTime, ...options }, out),
      );
      expect(byLines).toEqual(byPino);
      expect(direct).toBe(false);
    }
    // pino puts keys that are array indexes first, out of the fields' order.
    const out = capture();
    const indexed = fieldLines(pino(fixedTime, out), [['7', 'x'], 'n'], 'request');
    indexed([1]);
    expect(indexed.direct).toBe(false);
    expect(JSON.parse(out.lines[0]!)).toMatchObject({ 7: 'x', n: 1 });
    const traced = fieldLines(createLogger('info', capture(), { traced: true }), FIELDS, 'request');
    expect(traced.direct).toBe(false);
  });

  it('writes as pino writes with another message key and a nested key', () => {
    for (const options of [{ messageKey: 'message' }, { nestedKey: 'payload' }]) {
      const { byPino, byLines } = bothWays((out) => pino({ ...fixedTime, ...options }, out));
      expect(byLines).toEqual(byPino);
    }
  });

  it("writes nothing below the logger's level, looked at per line", () => {
    const out = capture();
    const logger = pino(fixedTime, out);
    const line = numberLines(logger, { operation: 'Top' }, 'durationMs', 'request');
    line(1);
    logger.level = 'warn';
    line(2);
    logger.level = 'info';
    line(3);
    expect(out.lines.map((written) => JSON.parse(written).durationMs)).toEqual([1, 3]);
  });
});

describe('logRequest', () => {
  beforeEach(() => {
    // Both clocks held still: a line's time and duration are the same both ways.
    vi.useFakeTimers({ toFake: ['Date', 'performance'], now: new Date() });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the line pino writes for the same fields, request after request', () => {
    const startedAt = performance.now() - 1.25;
    const operation = {
      name: 'ArtistPage',
      keyId: 'f00dfeedcafe0123456789',
      upstreamCalls: 0,
      cacheHits: 7,
      deduplicated: 0,
      stale: 0,
    };
    const post = { method: 'POST', path: '/graphql', status: 200, startedAt };
    const requests: RequestLogFields[] = [
      { ...post, operation },
      { ...post, operation: { ...operation, cacheHits: 9 } },
      { ...post, method: 'GET', status: 304, operation },
      { ...post, operation: { ...operation, upstreamCalls: undefined } },
      { ...post, startedAt: undefined, operation },
      { ...post, operation: { ...operation, responseCache: 'hit' } },
      { ...post, operation: { ...operation, name: null } },
      { ...post, operation: { ...operation, name: 'null' } },
      { ...post, method: 'GET', path: '/no-such-path', status: 404 },
    ];
    const byLog = capture();
    const logger = createLogger('info', byLog);
    for (const request of requests) logRequest(logger, request);
    const byPino = capture();
    const plain = createLogger('info', byPino);
    for (const { operation: asked, startedAt: started, ...request } of requests) {
      const durationMs =
        started === undefined ? undefined : Math.round((performance.now() - started) * 10) / 10;
      const object: Record<string, unknown> = { ...request, durationMs };
      if (asked !== undefined) {
        const { keyId, name, ...counts } = asked;
        Object.assign(object, { operation: name, key: keyId.slice(0, 8), ...counts });
      }
      plain.info(object, 'request');
    }
    expect(byLog.lines).toEqual(byPino.lines);
    expect(JSON.parse(byLog.lines[1]!)).toMatchObject({
      cacheHits: 9,
      key: 'f00dfeed',
      durationMs: 1.3,
    });
  });
});
