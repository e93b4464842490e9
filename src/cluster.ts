/**
 * `WORKERS=N` (N > 1; with Redis, one per core by default): N gateway processes on one
 * machine, sharing the port through node:cluster and their cache, budget and
 * keys through Redis when it is set, or through the stores this primary keeps
 * for them otherwise (gateway/machine-stores.ts). The primary serves no
 * request itself: it starts the embedded simulator when there is no
 * UPSTREAM_URL (so all workers read one upstream), forks the workers,
 * replaces one that crashes, gathers the workers' metrics for whichever of
 * them is scraped (group-metrics.ts), and passes SIGTERM/SIGINT on for a
 * graceful stop (stop-on-signals.ts).
 */
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import { EMBEDDED_SIMULATOR, type Upstream } from './embedded-simulator.js';
import type { GatewayConfig } from './gateway/gateway-config.js';
import { hostMachineStores } from './gateway/machine-stores.js';
import { createPrimaryLog } from './logger.js';
import { serveGroupMetrics } from './observability/group-metrics.js';
import {
  PRIMARY_CLOSE_ALLOWANCE_MS,
  stopOnSignals,
  WORKER_KILL_ALLOWANCE_MS,
} from './stop-on-signals.js';

/** A worker that refuses its configuration (exit status 2) would refuse it again: stop instead of re-forking. */
const CONFIG_REFUSED = 2;

export async function runPrimary(
  config: GatewayConfig,
  startEmbeddedSimulator: () => Promise<Upstream>,
): Promise<void> {
  const log = createPrimaryLog(config.logLevel);
  const embedded = config.upstreamUrl === undefined ? await startEmbeddedSimulator() : undefined;
  const { redisUrl, redisCluster } = config.scaleOut;
  const machineStores =
    redisUrl === undefined && redisCluster === undefined ? hostMachineStores(config) : undefined;
  const workerEnv =
    embedded === undefined
      ? {}
      : {
          UPSTREAM_URL: embedded.url,
          UPSTREAM_API_KEY: embedded.apiKey,
          [EMBEDDED_SIMULATOR]: String(embedded.exampleVariables.ArtistPage?.slug ?? ''),
        };
  let stopping = false;

  const fork = (): Worker => cluster.fork(workerEnv);
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    if (code === CONFIG_REFUSED) {
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      void embedded?.simulator?.close().finally(() => process.exit(CONFIG_REFUSED));
      return;
    }
    console.error(`worker ${worker.process.pid} ended (${signal ?? code}); starting another`);
    fork();
  });
  serveGroupMetrics();
  // The first worker starts alone, so that the port accepts as soon as one process can start;
  // the others start once it listens (or a replacement does), rather than share the cores with
  // it while it loads.
  cluster.once('listening', () => {
    for (let i = 1; i < config.scaleOut.workers; i += 1) fork();
  });
  fork();

  // Workers get the signal from the primary, and again from the group when it is signalled: they stop once.
  stopOnSignals({
    timeoutMs: config.shutdownTimeoutMs,
    closeAllowanceMs: PRIMARY_CLOSE_ALLOWANCE_MS,
    log,
    async stop(signal) {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter(
        (worker): worker is Worker => worker !== undefined && !worker.isDead(),
      );
      // A worker the primary outlived would be left for init to reap, which some never do (the
      // group then never ends): one still there past its own forced exit is killed.
      const kill = setTimeout(() => {
        for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGKILL');
      }, config.shutdownTimeoutMs + WORKER_KILL_ALLOWANCE_MS);
      try {
        await Promise.all(
          workers.map(async (worker) => {
            const exited = once(worker, 'exit');
            worker.process.kill(signal);
            await exited;
          }),
        );
      } finally {
        clearTimeout(kill);
      }
      await machineStores?.close();
      await embedded?.simulator?.close();
    },
  });
}

/** In a worker: end with the primary, rather than serve on as an orphan nobody supervises. */
export function exitWithPrimary(): void {
  cluster.worker?.on('disconnect', () => process.exit(1));
}
