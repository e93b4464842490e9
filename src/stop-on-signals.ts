/**
 * The process's one way out: SIGTERM or SIGINT, however often and from whoever (npm forwards
 * the signal it gets, so a signal to the process group arrives twice), starts one stop, and the
 * process exits 0 within the shutdown timeout plus a second, whatever the stop or the log does.
 */
import type { ProcessLog } from './logger.js';

/** Past the shutdown timeout: what closing the upstream pool and the simulator may take before the exit is forced. */
const CLOSE_ALLOWANCE_MS = 500;
/** A cluster's primary waits for its workers' own forced exits, and stays within the second. */
export const PRIMARY_CLOSE_ALLOWANCE_MS = 800;
/**
 * Past the shutdown timeout: when a cluster's primary kills a worker that is still there (its own
 * forced exit was due at CLOSE_ALLOWANCE_MS), so that the primary exits after every worker.
 */
export const WORKER_KILL_ALLOWANCE_MS = 650;
/** What the last log lines get to reach a slow reader. */
export const LOG_FLUSH_MS = 200;

export interface StopOnSignalsOptions {
  /** How long in-flight requests get (SHUTDOWN_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** Past `timeoutMs`, before the exit is forced (default 500 ms). */
  readonly closeAllowanceMs?: number;
  readonly log: ProcessLog;
  /** Finishes in-flight requests within `timeoutMs`, then closes what the process holds. */
  stop(signal: NodeJS.Signals): Promise<void>;
}

export function stopOnSignals(options: StopOnSignalsOptions): void {
  const { log } = options;
  const { logger } = log;
  let stopping = false;

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.info({ signal }, 'already shutting down');
      return;
    }
    stopping = true;
    logger.info(
      { signal, timeoutMs: options.timeoutMs },
      'shutting down: finishing in-flight requests',
    );
    // Not unref'd: it must fire even if a stuck socket or timer keeps the loop alive.
    const forced = setTimeout(
      () => {
        logger.warn('shutdown took too long: exiting now');
        log.abandon();
        process.exit(0);
      },
      options.timeoutMs + (options.closeAllowanceMs ?? CLOSE_ALLOWANCE_MS),
    );
    options
      .stop(signal)
      .then(
        () => logger.info('stopped'),
        (error: unknown) => logger.error({ err: error }, 'error while stopping'),
      )
      .then(() => log.close(LOG_FLUSH_MS))
      .finally(() => {
        clearTimeout(forced);
        process.exit(0);
      });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
