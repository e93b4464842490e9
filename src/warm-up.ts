/**
 * What a fresh process would otherwise do inside its first requests, done before it listens.
 *
 * A first request pays for more than its upstream calls: V8 compiles each function the request
 * path runs the first time it runs (Yoga's pipeline and plugins, parsing and validation, the
 * executor, the resolvers and the upstream readers, the response cache, compression), undici
 * instantiates its HTTP parser on its first connection, zlib sets up on its first answer, and
 * graphql-jit's compiler runs for the first time on the second request of a document. None of
 * it depends on which gateway runs it: what one gateway in the process ran, the next one runs
 * compiled.
 *
 * So, before the real gateway listens, a throwaway one answers the example operations (the ones
 * GraphiQL opens with) over HTTP, against a small simulator of its own in this process, both on
 * Unix sockets:
 * no upstream call, no budget spent, nothing in the real gateway's caches, stores or metrics.
 * Each operation is asked once; the first of them three times more, with a new body (so that it
 * runs compiled), with that body again (stored: the response cache admits a body's answer at
 * its second miss) and once more (a response-cache hit): the code those run is the same
 * whatever the operation, and each request here delays the listener. The answers are not looked
 * at: warming is best effort, and a failure here only leaves the first requests as slow as they
 * were.
 */
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import pino from 'pino';
import { createGateway } from './gateway/gateway.js';
import type { GatewayConfig } from './gateway/gateway-config.js';
import { exampleTabs } from './server/graphiql/examples.js';
import { startSimulator } from './simulator/index.js';
import { removeQuietly, temporaryFolder } from './temporary-folder.js';

const KEY = 'warm-up-key';
/** Enough artists for the examples' lists, and little to generate. */
const ARTISTS = 24;
/** Small caches: the real gateway's sizes would only make the throwaway one slower to build. */
const CACHE_ENTRIES = 1_000;
const CACHE_BYTES = 16 * 1024 * 1024;
/** A warm-up that takes longer than this is given up (the process starts anyway). */
const DEADLINE_MS = 5_000;

/**
 * Runs the warm-up; resolves once done or given up, never rejects: with whether every request
 * of it was answered 200 (a check for the tests, which the start does not need).
 */
export async function warmUp(
  config: GatewayConfig,
  mode: 'server' | 'pass-through',
): Promise<boolean> {
  const deadline = AbortSignal.timeout(DEADLINE_MS);
  // Unix sockets, not ports, for the throwaway gateway and its simulator: no port of this
  // machine is taken, even for a moment (another program may have just found it free).
  const folder = temporaryFolder('gateway-warm-up-');
  if (folder === undefined) return false;
  const socketPath = join(folder, 'http.sock');
  let simulator: Awaited<ReturnType<typeof startSimulator>> | undefined;
  let gateway: ReturnType<typeof createGateway> | undefined;
  const server = createServer((req, res) => gateway?.handler(req, res));
  try {
    const upstreamSocket = join(folder, 'upstream.sock');
    simulator = await startSimulator({
      socketPath: upstreamSocket,
      artists: ARTISTS,
      apiKeys: [KEY],
      dailyLimit: Number.MAX_SAFE_INTEGER,
    });
    const slug = simulator.data.allArtists()[0]?.slug ?? 'burna-boy';
    // Log lines are made as the real gateway makes them, and dropped.
    const logger = pino({ level: config.logLevel }, { write: () => undefined });
    const { refreshPollMs: _poll, budgetPlan: _plan, ...settings } = config;
    gateway = createGateway({
      ...settings,
      upstreamUrl: simulator.url,
      upstreamApiKey: mode === 'server' ? KEY : undefined,
      logger,
      graphiql: false,
      client: { ...settings.client, socketPath: upstreamSocket },
      cache: { ...config.cache, maxEntries: CACHE_ENTRIES, maxBytes: CACHE_BYTES },
      stores: {
        clientBudgetShare: config.scaleOut.clientBudgetShare,
        trustProxy: config.scaleOut.trustProxy,
        keyAcceptedTtlMs: config.scaleOut.keyAcceptedTtlMs,
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // Exclusive: in a cluster worker, not a listener the primary shares out among the workers.
      server.listen({ path: socketPath, exclusive: true }, resolve);
    });
    let answered = true;
    const ask = (query: string, variables: Record<string, unknown>) =>
      new Promise<void>((resolve, reject) => {
        const body = JSON.stringify({ query, variables });
        const sent = request(
          {
            socketPath,
            path: '/graphql',
            method: 'POST',
            agent: false,
            signal: deadline,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              accept: 'application/graphql-response+json, application/json',
              'accept-encoding': 'gzip',
              authorization: `Bearer ${KEY}`,
            },
          },
          (response) => {
            if (response.statusCode !== 200) answered = false;
            response.once('end', resolve).once('error', reject).resume();
          },
        );
        sent.once('error', reject).end(body);
      });
    const queries = exampleTabs()
      .map((tab) => tab.query)
      .filter((query) => !/^\s*subscription\b/m.test(query));
    for (const query of queries) await ask(query, { slug });
    const [first] = queries;
    if (first !== undefined) {
      // An undeclared variable makes the body new (a response-cache miss), and is ignored.
      for (let time = 0; time < 3; time++) await ask(first, { slug, warmUp: true });
    }
    return answered && queries.length > 0;
  } catch {
    // Best effort: the first requests warm what this did not.
    return false;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await gateway?.close().catch(() => undefined);
    await simulator?.close().catch(() => undefined);
    removeQuietly(folder);
  }
}
