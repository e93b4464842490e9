/**
 * The commands Redis runs while something happens, seen through MONITOR on a connection of the
 * test's own: what a request costs in round trips, counted where Redis counts it.
 *
 * Why a plain socket, not ioredis's `monitor()`: a gateway under test keeps Redis busy in the
 * background (the popularity batch every tenth of a second), and a monitor line that arrives
 * before ioredis has switched its connection to monitoring fails it with "Command queue state
 * error". Here every line after MONITOR's `+OK` is a command, whenever it comes.
 */
import { connect } from 'node:net';
import type { Redis } from 'ioredis';

/** The quoted arguments of one MONITOR line (`+<time> [<db> <client>] "get" "key"`), unescaped. */
function argsOf(line: string): string[] {
  const args: string[] = [];
  for (const [, quoted] of line.matchAll(/"((?:[^"\\]|\\.)*)"/g))
    args.push(
      (quoted ?? '').replace(/\\(x[0-9a-fA-F]{2}|.)/g, (_, escaped: string) =>
        escaped.length === 3
          ? String.fromCharCode(Number.parseInt(escaped.slice(1), 16))
          : ({ n: '\n', r: '\r', t: '\t' }[escaped] ?? escaped),
      ),
    );
  return args;
}

/**
 * The commands (name lowercased, then their arguments) Redis ran while `during` ran that
 * `wanted` keeps. Redis shows commands in the order it runs them: once a marker sent after
 * `during` shows, so have all of its own.
 */
export async function commandsDuring(
  redis: Redis,
  wanted: (args: readonly string[]) => boolean,
  during: () => Promise<void>,
): Promise<string[][]> {
  const marker = `monitor-marker-${process.pid}-${Math.random()}`;
  const seen: string[][] = [];
  const socket = connect(redis.options.port ?? 6379, redis.options.host ?? '127.0.0.1');
  socket.setEncoding('utf8');
  let pending = '';
  let monitoring: () => void = () => {};
  let markerSeen: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    monitoring = resolve;
  });
  const seenAll = new Promise<void>((resolve) => {
    markerSeen = resolve;
  });
  socket.on('data', (chunk: string) => {
    pending += chunk;
    let end = pending.indexOf('\r\n');
    while (end >= 0) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 2);
      end = pending.indexOf('\r\n');
      if (line === '+OK') monitoring();
      else {
        const args = argsOf(line);
        if (args.includes(marker)) markerSeen();
        else if (wanted(args)) seen.push([String(args[0]).toLowerCase(), ...args.slice(1)]);
      }
    }
  });
  try {
    socket.write('MONITOR\r\n');
    await started;
    await during();
    await redis.echo(marker);
    await seenAll;
  } finally {
    socket.destroy();
  }
  return seen;
}
