/**
 * `npm run simulate`: issue 15's capacity planner. Runs the gateway's real
 * code (N replicas on one Redis) against the embedded simulator with a moved
 * clock and prints one row per simulated day (simulate/simulation.ts).
 */

import { runDeployment } from './deployment.js';
import { optionsOrUsage } from './options.js';
import { runSimulation } from './simulation.js';
import { header, table } from './table.js';

async function main(): Promise<void> {
  const options = optionsOrUsage(process.argv.slice(2), 'simulate');
  if (options === undefined) return;
  console.log(header(options));
  const run = options.mode === 'deployment' ? runDeployment : runSimulation;
  const result = await run(options, (line) => console.error(line));
  console.log(table(result.rows));
  if (result.lateGenerations > 0)
    console.log(`${result.lateGenerations} polls: some replica learnt the new generation late.`);
  console.log(`Wall time: ${result.wallSeconds.toFixed(1)} s`);
}

main().catch((error: unknown) => {
  console.error('simulate failed:', error);
  process.exitCode = 1;
});
