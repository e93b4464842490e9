/**
 * The gateway's process: the simulator (when no UPSTREAM_URL names an
 * upstream and no primary started one), Redis when set, the gateway, its
 * listeners and its graceful stop. Loaded by `npm start` (main.ts) for a
 * process alone or a cluster's worker, never by a primary.
 */
import cluster from 'node:cluster';
import { exitWithPrimary, reportFirstAnswer } from './cluster.js';
import {
  configuredUpstream,
  embeddedSimulator,
  SIMULATOR_KEY,
  type Upstream,
} from './embedded-simulator.js';
import { createGateway } from './gateway/gateway.js';
import type { GatewayConfig } from './gateway/gateway-config.js';
import { createProcessLog } from './logger.js';
import { PrimaryLink } from './machine/primary-link.js';
import { joinGroupMetrics } from './observability/group-metrics.js';
import { listenMetrics } from './observability/metrics-server.js';
import { startTracing } from './observability/tracing.js';
import { listen } from './server/http/http-server.js';
import { settleHeap } from './settled-heap.js';
import { PUBLISH_PATH } from './simulator/server.js';
import { stopOnSignals } from './stop-on-signals.js';
import { warmUp } from './warm-up.js';

/** Upstream connections opened at start: as many as a page's first wave of calls. */
const FIRST_CONNECTIONS = 4;

/**
 * Where a newcomer finds GraphiQL, health, metrics and the upstream, in one write to stdout: it
 * runs as the port opens, when a first request may already be waiting, and console.log's first
 * call would set up its formatting while that request waits.
 */
function printAddresses(
  url: string,
  metricsUrl: string | undefined,
  upstream: Upstream,
  authMode: 'server' | 'pass-through',
): void {
  const lines = [
    '',
    `  GraphQL + GraphiQL  ${url}/graphql`,
    `  Health             ${url}/health   Ready ${url}/ready`,
    `  Metrics            ${metricsUrl ?? `${url}/metrics`}`,
    ...(upstream.embedded
      ? [
          `  Upstream simulator ${upstream.url}/api/v1 (key "${SIMULATOR_KEY}", server-key mode)`,
          `  New milestone      curl -X POST ${upstream.url}${PUBLISH_PATH}   (seen by the next refresh poll)`,
        ]
      : [
          `  Upstream           ${upstream.url} (${authMode === 'server' ? 'server-key' : 'pass-through'} mode)`,
        ]),
    '',
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

/** The gateway's process: alone (`WORKERS=1`), or a worker of a cluster. */
export async function serve(config: GatewayConfig): Promise<void> {
  if (cluster.isWorker) exitWithPrimary();
  const tracing = await startTracing();
  const log = createProcessLog(config.logLevel, { traced: tracing !== undefined });
  const { logger } = log;
  const upstream =
    config.upstreamUrl === undefined
      ? await embeddedSimulator(config)
      : configuredUpstream(config.upstreamUrl, config.upstreamApiKey);
  const { simulator } = upstream;

  const {
    redisUrl,
    redisCluster,
    redisKeyPrefix,
    redisDurability,
    budgetFile,
    clientBudgetShare,
    trustProxy,
    keyAcceptedTtlMs,
  } = config.scaleOut;
  const redisTarget = redisCluster ?? redisUrl;
  const redis =
    redisTarget === undefined
      ? undefined
      : // Loaded only here: a process without Redis never holds the client's code.
        await (await import('./redis/connection.js')).connectRedis(
          redisTarget,
          redisKeyPrefix,
          logger,
          redisDurability,
        );
  // Before the gateway listens, so that its first requests find the request path warm; after
  // Redis answered, so that a Redis that cannot be reached is refused without that wait.
  await warmUp(config, upstream.apiKey === undefined ? 'pass-through' : 'server');
  const gateway = createGateway({
    ...config,
    upstreamUrl: upstream.url,
    upstreamApiKey: upstream.apiKey,
    logger,
    exampleVariables: upstream.exampleVariables,
    channelPrefix: redisKeyPrefix,
    ...(redis ? { redis } : {}),
    // A worker without Redis shares the stores its primary keeps for the machine (cluster.ts).
    ...(redis === undefined && cluster.isWorker ? { machine: new PrimaryLink() } : {}),
    stores: { clientBudgetShare, trustProxy, keyAcceptedTtlMs, ...(redis ? {} : { budgetFile }) },
    // Its plugins (and @envelop/opentelemetry's SDK) are loaded only when traces are exported.
    ...(tracing === undefined
      ? {}
      : { tracing: (await import('./server/plugins/use-tracing.js')).useTracing() }),
  });
  // A worker's scrape shows the whole group of workers (cluster.ts gathers it).
  if (cluster.isWorker) joinGroupMetrics(gateway.metrics);
  // A connection is not a call: it costs the day's budget nothing, and spares the first
  // requests their handshakes.
  gateway.preconnect(FIRST_CONNECTIONS);
  // What the warm-up and the gateway's construction left is collected now, not in a first request.
  settleHeap();
  const running = await listen(gateway, config.port, config.host);
  if (cluster.worker?.id === 1) reportFirstAnswer(running.server);
  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : await listenMetrics(gateway.metrics, config.metricsPort, config.host);

  logger.info({ url: `${running.url}/graphql`, mode: gateway.authMode }, 'gateway listening');
  // The workers of a group share one address: the first of them tells it.
  if (!cluster.isWorker || cluster.worker?.id === 1)
    printAddresses(`${running.url}`, metricsServer?.url, upstream, gateway.authMode);

  stopOnSignals({
    timeoutMs: config.shutdownTimeoutMs,
    async stop() {
      await running.close(config.shutdownTimeoutMs);
      await metricsServer?.close();
      await tracing?.shutdown();
      await simulator?.close();
    },
    log,
  });
}
