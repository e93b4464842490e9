/**
 * `npm start`: with no configuration, starts the embedded upstream simulator
 * and the gateway against it (server-key mode); with UPSTREAM_URL, starts
 * only the gateway, against that upstream.
 */
// First: graphql-js reads NODE_ENV when it loads (production-mode.ts).
import './production-mode.js';
import cluster from 'node:cluster';
import { exitWithPrimary, runPrimary } from './cluster.js';
import { loadConfig } from './config.js';
import { ConfigError } from './config-error.js';
import { createGateway } from './gateway/gateway.js';
import type { GatewayConfig } from './gateway/gateway-config.js';
import { createProcessLog } from './logger.js';
import { joinGroupMetrics } from './observability/group-metrics.js';
import { listenMetrics } from './observability/metrics-server.js';
import { startTracing } from './observability/tracing.js';
import { listen } from './server/http/http-server.js';
import { type Simulator, startSimulator } from './simulator/index.js';
import { PUBLISH_PATH } from './simulator/server.js';
import { stopOnSignals } from './stop-on-signals.js';
import { warmUp } from './warm-up.js';

const SIMULATOR_KEY = 'gateway-demo-key';
/** Upstream connections opened at start: as many as a page's first wave of calls. */
const FIRST_CONNECTIONS = 4;

interface Upstream {
  readonly url: string;
  readonly apiKey: string | undefined;
  readonly simulator: Simulator | undefined;
  readonly exampleVariables: Record<string, Record<string, unknown>>;
}

async function embeddedSimulator(config: GatewayConfig): Promise<Upstream> {
  const simulator = await startSimulator({
    artists: config.simulator.artists,
    seed: config.simulator.seed,
    latencyMs: config.simulator.latencyMs,
    roughness: config.simulator.roughness,
    apiKeys: [SIMULATOR_KEY],
    dailyLimit: config.dailyLimit,
  });
  return {
    url: simulator.url,
    apiKey: SIMULATOR_KEY,
    simulator,
    exampleVariables: { ArtistPage: { slug: simulator.data.allArtists()[0]?.slug ?? 'burna-boy' } },
  };
}

async function main(config: GatewayConfig): Promise<void> {
  const tracing = await startTracing();
  const log = createProcessLog(config.logLevel, { traced: tracing !== undefined });
  const { logger } = log;
  const upstream: Upstream =
    config.upstreamUrl === undefined
      ? await embeddedSimulator(config)
      : {
          url: config.upstreamUrl,
          apiKey: config.upstreamApiKey,
          simulator: undefined,
          exampleVariables: { ArtistPage: { slug: 'burna-boy' } },
        };
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
  const running = await listen(gateway, config.port, config.host);
  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : await listenMetrics(gateway.metrics, config.metricsPort, config.host);

  logger.info({ url: `${running.url}/graphql`, mode: gateway.authMode }, 'gateway listening');
  console.log(`\n  GraphQL + GraphiQL  ${running.url}/graphql`);
  console.log(`  Health             ${running.url}/health   Ready ${running.url}/ready`);
  console.log(`  Metrics            ${metricsServer?.url ?? `${running.url}/metrics`}`);
  if (simulator !== undefined) {
    console.log(
      `  Upstream simulator ${simulator.url}/api/v1 (key "${SIMULATOR_KEY}", server-key mode)`,
    );
    console.log(
      `  New milestone      curl -X POST ${simulator.url}${PUBLISH_PATH}   (seen by the next refresh poll)\n`,
    );
  } else {
    console.log(
      `  Upstream           ${upstream.url} (${gateway.authMode === 'server' ? 'server-key' : 'pass-through'} mode)\n`,
    );
  }

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

try {
  const config = loadConfig();
  if (config.scaleOut.workers > 1 && cluster.isPrimary) {
    await runPrimary(config, () => embeddedSimulator(config));
  } else {
    if (cluster.isWorker) exitWithPrimary();
    await main(config);
  }
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
