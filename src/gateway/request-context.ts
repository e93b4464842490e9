/**
 * The context of one GraphQL request, as every resolver and plugin sees it
 * (schema/context.ts): who is asking, a loader over the cached upstream with
 * its own figures and call cap, and for subscriptions a fresh loader per
 * event and a bound on how far the client may fall behind.
 */
import type { Logger } from 'pino';
import type { Caller } from '../reads/caller.js';
import { RequestLoader } from '../reads/request-loader.js';
import { RequestReport } from '../reads/request-report.js';
import { type RequestReads, RequestSpending } from '../reads/request-spending.js';
import { WholeRequestHold } from '../reads/whole-request-hold.js';
import type { GatewayContext } from '../schema/context.js';
import type { OperationEstimates } from '../schema/operation-estimates.js';
import { type AuthMode, callerFor } from '../server/caller.js';
import { clientOf } from '../server/client-identity.js';
import type { FurthestBehindFirst } from '../server/memory/furthest-behind-first.js';
import { boundedBacklog, responseOutlet } from '../server/memory/subscriber-backlog.js';
import type { ContextSource } from '../server/server-context.js';
import type { UpstreamAssumptions } from '../upstream/endpoints.js';
import type { ReadPath } from './read-path.js';

export interface RequestContextOptions {
  readonly readPath: ReadPath;
  readonly auth: AuthMode;
  readonly assumptions: UpstreamAssumptions;
  /** Worst-case upstream calls one request (or one subscription event) may make. */
  readonly maxUpstreamCost: number;
  /** Each operation's worst-case upstream calls, given to its context when it is made. */
  readonly estimates: OperationEstimates;
  /** Bytes a subscriber may fall behind before its subscription ends. */
  readonly backlogBytes: number;
  /** Bytes all subscribers together may be behind (subscriber-backlog.ts). */
  readonly backlogTotal?: FurthestBehindFirst;
  /** Whether X-Forwarded-For names the client (client-identity.ts). */
  readonly trustProxy: boolean;
  readonly logger: Logger;
}

export function requestContext({
  readPath,
  auth,
  assumptions,
  maxUpstreamCost,
  estimates,
  backlogBytes,
  backlogTotal,
  trustProxy,
  logger,
}: RequestContextOptions) {
  const { server, upstream, stores, generation, metrics, traced } = readPath;

  /** In server-key mode, who the call is for: each client may spend only its share of the key's day. */
  const withClientIdentity = (caller: Caller, initial: ContextSource) =>
    caller.mode !== 'server' || !stores.capsClients
      ? caller
      : Object.assign({}, caller, { clientId: clientOf(initial.request, initial, trustProxy) });

  return (initial: ContextSource): GatewayContext => {
    const { request, res } = initial;
    const caller = withClientIdentity(callerFor(request, auth, server), initial);
    // The estimate refuses costly operations early; the cap bounds what the data makes of the rest.
    const estimate = () => estimates.of(initial.params);
    const reads = readsOf(maxUpstreamCost, estimate, new WholeRequestHold());
    const context: GatewayContext = {
      caller,
      ...reads,
      budget: stores.budget,
      assumptions,
      live: stores.live,
      generation,
      loader: new RequestLoader(upstream, caller, reads, { logger, traced }),
      /** A subscription runs for hours: each event gets a fresh loader and call cap, so links read today's cache. */
      renewForEvent() {
        const eventReads = readsOf(maxUpstreamCost, estimate);
        Object.assign(context, eventReads, {
          loader: new RequestLoader(upstream, caller, eventReads, { logger, traced }),
        });
      },
      boundedBacklog: <T>(events: AsyncIterableIterator<T>) =>
        boundedBacklog(
          events,
          backlogBytes,
          responseOutlet(res, (bytes) => {
            metrics.subscriptionDropped();
            logger.warn(
              {
                client: clientOf(request, initial, trustProxy),
                behindBytes: bytes,
                maxBytes: backlogBytes,
              },
              'subscription ended: its client stopped reading',
            );
          }),
          backlogTotal,
        ),
    };
    return context;
  };
}

/** A request's (or a subscription event's) report, and what it may spend. */
function readsOf(
  maxUpstreamCalls: number,
  estimate: () => number,
  hold?: WholeRequestHold,
): RequestReads {
  const report = new RequestReport();
  return {
    report,
    spending: new RequestSpending(report, {
      maxUpstreamCalls,
      estimate,
      ...(hold === undefined ? {} : { hold }),
    }),
  };
}
