/**
 * How the bench scripts print their figures: numbers as en-US, the middle of a run's values, the
 * machine they ran on.
 */
import { availableParallelism, loadavg } from 'node:os';

export const format = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The machine, as a bench's output opens with it: its cores (read before anything is pinned:
 * a pinned process sees one), Node's version, the load average.
 */
export const machineLine = (cores = availableParallelism()) =>
  `${cores} cores, Node ${process.version}, load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`;
