/**
 * `npm run simulate`: issue 15's capacity planner. Runs the gateway's real
 * code (N replicas on one Redis) against the embedded simulator with a moved
 * clock and prints one row per simulated day (simulate/simulation.ts).
 */

import { runDeployment } from './deployment.js';
import { OptionsError, parseOptions, USAGE } from './options.js';
import { runSimulation } from './simulation.js';
import { header, table } from './table.js';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (!(error instanceof OptionsError)) throw error;
    console.error(`simulate: ${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
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
