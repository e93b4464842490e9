/**
 * The process log (logger.ts) as a process writes it to its stdout: lines gathered into
 * batches still reach the reader when the process exits without closing its log.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const LOGGER = new URL('../../src/logger.ts', import.meta.url).pathname;

async function stdoutOf(
  script: string,
): Promise<{ lines: Record<string, unknown>[]; code: number }> {
  const child = run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  const { stdout, code } = await child.then(
    ({ stdout }) => ({ stdout, code: 0 }),
    (error: { stdout: string; code: number }) => ({ stdout: error.stdout, code: error.code }),
  );
  const lines = stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { lines, code };
}

describe('the process log', () => {
  it('writes the lines of an unfinished batch when the process exits without closing it', async () => {
    const { lines, code } = await stdoutOf(`
      const { createProcessLog } = await import(${JSON.stringify(LOGGER)});
      const { logger } = createProcessLog('info');
      for (let i = 0; i < 3; i += 1) logger.info({ i }, 'line');
      logger.fatal('stopping');
      process.exit(3);
    `);
    expect(code).toBe(3);
    expect(lines.map((line) => line.msg)).toEqual(['line', 'line', 'line', 'stopping']);
    expect(lines.map((line) => line.i)).toEqual([0, 1, 2, undefined]);
  });

  it('writes every line, in order, when the log is closed', async () => {
    const { lines } = await stdoutOf(`
      const { createProcessLog } = await import(${JSON.stringify(LOGGER)});
      const log = createProcessLog('info');
      for (let i = 0; i < 2000; i += 1) log.logger.info({ i }, 'line');
      await log.close(5000);
    `);
    expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
  });
});
