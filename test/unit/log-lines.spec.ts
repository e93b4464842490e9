import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { numberLines } from '../../src/log-lines.js';
import { createLogger } from '../../src/logger.js';

/** A destination that keeps each line pino (or numberLines) hands it. */
const capture = () => {
  const lines: string[] = [];
  return { lines, write: (line: string) => lines.push(line) };
};

const FIELDS = {
  operation: 'Top "20"',
  key: 'abcd1234',
  upstreamCalls: 0,
  responseCache: 'hit',
  method: 'POST',
  path: '/graphql',
  status: 200,
};
const VALUES = [0, 0.3, 12.5, 1234567.8, -1, undefined, Number.NaN, Number.POSITIVE_INFINITY];

/** The lines pino writes for VALUES, and those numberLines writes, on two loggers made alike. */
function bothWays(make: (out: ReturnType<typeof capture>) => pino.Logger) {
  const byPino = capture();
  const child = make(byPino).child(FIELDS);
  for (const value of VALUES) child.info({ durationMs: value }, 'request');
  const byLines = capture();
  const line = numberLines(make(byLines), FIELDS, 'durationMs', 'request');
  for (const value of VALUES) line(value);
  return { byPino: byPino.lines, byLines: byLines.lines, direct: line.direct };
}

// A fixed clock: the two ways' lines are compared byte for byte.
const fixedTime = { timestamp: () => ',"time":1795981916199' };

describe('numberLines', () => {
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
    expect(byLines).toHaveLength(VALUES.length);
    expect(JSON.parse(byLines[1]!)).toMatchObject({ ...FIELDS, durationMs: 0.3, msg: 'request' });
    expect(direct).toBe(true);
  });

  it('writes as pino writes for a plain logger, its redaction and level labels included', () => {
    const { byPino, byLines, direct } = bothWays((out) =>
      pino({ ...fixedTime, base: { service: 'x' }, redact: ['apiKey', 'operation'] }, out),
    );
    expect(byLines).toEqual(byPino);
    expect(byLines[0]).toContain('"operation":"[Redacted]"');
    expect(direct).toBe(true);
  });

  it('leaves to pino the lines it would write otherwise', () => {
    for (const options of [
      { mixin: () => ({ traceId: 't' }) },
      { formatters: { log: (object: object) => ({ ...object, extra: 1 }) } },
      { hooks: { streamWrite: (line: string) => line.replace('request', 'REQUEST') } },
      { nestedKey: 'payload' },
      { msgPrefix: '[gateway] ' },
      { serializers: { durationMs: (value: number) => Math.round(value) } },
      { redact: ['durationMs'] },
      { messageKey: 'message' },
    ]) {
      const { byPino, byLines, direct } = bothWays((out) =>
        pino({ ...fixedTime, ...options }, out),
      );
      expect(byLines).toEqual(byPino);
      if (!('messageKey' in options)) expect(direct).toBe(false);
    }
    const traced = numberLines(
      createLogger('info', capture(), { traced: true }),
      FIELDS,
      'durationMs',
      'request',
    );
    expect(traced.direct).toBe(false);
  });

  it("writes nothing below the logger's level, looked at per line", () => {
    const out = capture();
    const logger = pino(fixedTime, out);
    const line = numberLines(logger, FIELDS, 'durationMs', 'request');
    line(1);
    logger.level = 'warn';
    line(2);
    logger.level = 'info';
    line(3);
    expect(out.lines.map((written) => JSON.parse(written).durationMs)).toEqual([1, 3]);
  });
});
