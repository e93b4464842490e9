/**
 * How many gateway processes `WORKERS=auto` runs on this machine: one per
 * core it is given, as many as its memory holds.
 */
import { availableParallelism, totalmem } from 'node:os';

export const MAX_WORKERS = 64;

/**
 * What one worker needs beyond its share of the memory bounds: its runtime, code and the heap's
 * room for garbage, with the primary's part spread over the workers. A machine (or container)
 * with less than two of these runs one process, which needs no primary at all.
 */
export const MEMORY_PER_WORKER = 384 * 1024 * 1024;

/** `WORKERS=auto`: one worker per core, as many as `memoryBytes` holds, at least one. */
export function autoWorkers(cores: number, memoryBytes: number): number {
  return Math.max(1, Math.min(MAX_WORKERS, cores, Math.floor(memoryBytes / MEMORY_PER_WORKER)));
}

/** The memory this process may use: a container's limit when one is known, else the machine's. */
function memoryForProcesses(): number {
  const limit = process.constrainedMemory?.();
  const machine = totalmem();
  // Without a limit Node answers undefined, 0 or the largest 64-bit number, depending on version.
  return limit !== undefined && limit > 0 && limit < machine ? limit : machine;
}

/** `autoWorkers` for this machine: its cores, and a container's memory limit when one is known. */
export function autoWorkersHere(): number {
  return autoWorkers(availableParallelism(), memoryForProcesses());
}
