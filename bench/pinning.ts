/**
 * Pinning processes to cores with `taskset`, so that a server's CPU time per request is its own
 * work and not a share of a core it fought the load generator for.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** Whether processes can be pinned here: two cores or more, and `taskset` at hand. */
function canPin(): boolean {
  if (availableParallelism() < 2) return false;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Pins every thread of process `pid` to `core`. */
const pin = (pid: number, core: number): void => {
  execFileSync('taskset', ['-a', '-cp', String(core), String(pid)], { stdio: 'ignore' });
};

/**
 * Pins a bench's processes when it can: `servers` to the first core, this process (the load
 * generator) and `others` (the simulator) to the second. Whether it did.
 */
export function pinBench(servers: readonly number[], others: readonly number[]): boolean {
  if (!canPin()) return false;
  for (const pid of [process.pid, ...others]) pin(pid, 1);
  for (const pid of servers) pin(pid, 0);
  return true;
}
