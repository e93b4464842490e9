/**
 * `npm start`: with no configuration, starts the embedded upstream simulator
 * and the gateway against it (server-key mode); with UPSTREAM_URL, starts
 * only the gateway, against that upstream. With several workers (WORKERS),
 * the cluster's primary loads only what it runs (cluster.ts), not the
 * gateway's code.
 */
// First: graphql-js reads NODE_ENV when it loads (production-mode.ts).
import './production-mode.js';
import cluster from 'node:cluster';
import { loadConfig } from './config.js';
import { ConfigError } from './config-error.js';

try {
  const config = loadConfig();
  if (config.scaleOut.workers > 1 && cluster.isPrimary) {
    const [{ runPrimary }, { embeddedSimulator }] = await Promise.all([
      import('./cluster.js'),
      import('./embedded-simulator.js'),
    ]);
    await runPrimary(config, () => embeddedSimulator(config));
  } else {
    await (await import('./serve.js')).serve(config);
  }
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
