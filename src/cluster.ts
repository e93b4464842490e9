/**
 * `WORKERS=N` (N > 1; by default one per core, as the memory allows): N gateway processes on one
 * machine, sharing the port through node:cluster and their cache, budget and
 * keys through Redis when it is set, or through the stores this primary keeps
 * for them otherwise (gateway/machine-stores.ts). The primary serves no
 * request itself: it starts the embedded simulator when there is no
 * UPSTREAM_URL (so all workers read one upstream), forks the workers,
 * replaces one that crashes, writes what the workers log (worker-output.ts),
 * gathers the workers' metrics for whichever of them is scraped
 * (group-metrics.ts), and passes SIGTERM/SIGINT on for a graceful stop
 * (stop-on-signals.ts).
 */
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import type { Server, ServerResponse } from 'node:http';
import { EMBEDDED_SIMULATOR, type Upstream } from './embedded-simulator.js';
import type { GatewayConfig } from './gateway/gateway-config.js';
import { hostMachineStores } from './gateway/machine-stores.js';
import { warmMachineStores } from './gateway/machine-warm-up.js';
import { createProcessLog } from './logger.js';
import { serveGroupMetrics } from './observability/group-metrics.js';
import { settleHeap } from './settled-heap.js';
import {
  LOG_FLUSH_MS,
  PRIMARY_CLOSE_ALLOWANCE_MS,
  stopOnSignals,
  WORKER_KILL_ALLOWANCE_MS,
} from './stop-on-signals.js';
import { WORKER_STDIO, workerOutputRelay } from './worker-output.js';

/** A worker that refuses its configuration (exit status 2) would refuse it again: stop instead of re-forking. */
const CONFIG_REFUSED = 2;
/** The first worker's message once it has answered a request: the others may take the cores. */
const FIRST_ANSWER = 'cluster:first-answer';
/** When the others start if the first worker has answered nothing since it listened. */
const OTHERS_AFTER_MS = 1_000;
/**
 * How long after the first answer the others start: its last bytes are still on their way to
 * the client, and a process being spawned and loaded would take the cores they need.
 */
const OTHERS_AFTER_FIRST_ANSWER_MS = 200;

export async function runPrimary(
  config: GatewayConfig,
  startEmbeddedSimulator: () => Promise<Upstream>,
): Promise<void> {
  // The group's one writer of stdout: workers write to pipes the primary reads (worker-output.ts).
  const log = createProcessLog(config.logLevel);
  const relay = workerOutputRelay(log);
  const relayed = new Map<Worker, Promise<void>>();
  cluster.setupPrimary({ stdio: [...WORKER_STDIO] });
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

  const fork = (): Worker => {
    const worker = cluster.fork(workerEnv);
    relayed.set(worker, relay(worker.process));
    // A reply or an announcement sent while a worker goes away fails (EPIPE) as an event on the
    // worker: unheard, it would crash the primary, though the worker's exit is handled below.
    worker.on('error', (error: Error) => {
      log.logger.debug({ pid: worker.process.pid, err: error }, 'worker channel failed');
    });
    return worker;
  };
  /** Once `worker` has exited and what it wrote has been passed on. */
  const gone = (worker: Worker) =>
    Promise.all([once(worker, 'exit'), relayed.get(worker)]).then(() => {
      relayed.delete(worker);
    });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    if (code === CONFIG_REFUSED) {
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      // The worker's reason is on its stderr: passed on before the primary exits with its status.
      void Promise.all([relayed.get(worker), embedded?.simulator?.close()]).finally(() =>
        log.close(LOG_FLUSH_MS).finally(() => process.exit(CONFIG_REFUSED)),
      );
      return;
    }
    relayed.delete(worker);
    log.logger.warn(
      { pid: worker.process.pid, ended: signal ?? code },
      'worker ended: starting another',
    );
    fork();
  });
  serveGroupMetrics();
  // The first worker starts alone, so that the port accepts as soon as one process can start,
  // and answers its first request alone too: a worker loading takes a core for a second, which
  // the first answers of a fresh group (after a deploy, to a health check) would share. The
  // others start a moment after it has answered, or OTHERS_AFTER_MS after it listens if nothing
  // came.
  let othersStarted = false;
  // Every message of every worker passes here until the first answer, then none.
  const onFirstAnswer = (_worker: Worker, message: { type?: unknown } | null) => {
    if (message?.type !== FIRST_ANSWER) return;
    cluster.off('message', onFirstAnswer);
    setTimeout(startOthers, OTHERS_AFTER_FIRST_ANSWER_MS);
  };
  const startOthers = () => {
    cluster.off('message', onFirstAnswer);
    if (othersStarted || stopping) return;
    othersStarted = true;
    for (let i = 1; i < config.scaleOut.workers; i += 1) fork();
  };
  cluster.once('listening', () => setTimeout(startOthers, OTHERS_AFTER_MS));
  cluster.on('message', onFirstAnswer);
  fork();
  // While the first worker loads, the primary has nothing else to do: it rehearses a first page,
  // then collects what the rehearsal and its own start left, before any request reaches it.
  void (async () => {
    if (machineStores !== undefined) await warmMachineStores(config);
    settleHeap();
  })();

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
            const exited = gone(worker);
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

/** In the first worker: tells the primary once `server` has answered its first request. */
export function reportFirstAnswer(server: Server): void {
  server.once('request', (_request, response: ServerResponse) => {
    response.once('close', () => {
      if (process.connected) process.send?.({ type: FIRST_ANSWER });
    });
  });
}

/** In a worker: end with the primary, rather than serve on as an orphan nobody supervises. */
export function exitWithPrimary(): void {
  cluster.worker?.on('disconnect', () => process.exit(1));
}
