/**
 * The commands Redis runs while something happens, seen through MONITOR on a connection of the
 * test's own: what a request costs in round trips, counted where Redis counts it.
 */
import type { Redis } from 'ioredis';

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
  let markerSeen: () => void = () => {};
  const seenAll = new Promise<void>((resolve) => {
    markerSeen = resolve;
  });
  const monitor = await redis.monitor();
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (args.includes(marker)) markerSeen();
    else if (wanted(args)) seen.push([String(args[0]).toLowerCase(), ...args.slice(1)]);
  });
  try {
    await during();
    await redis.echo(marker);
    await seenAll;
  } finally {
    monitor.disconnect();
  }
  return seen;
}
