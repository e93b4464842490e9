/**
 * The bounds of docs/configuration.md#memory that are not caches, made once
 * per gateway: turns at building answers (request-turns.ts), request bodies
 * held (request-bodies.ts), answers and subscriber events not yet taken by
 * slow clients (furthest-behind-first.ts), and the gauges that show how full each is.
 */
import type { GatewayMetrics } from '../../observability/metrics.js';
import { DEFAULT_ANSWER_BACKLOG_TOTAL_BYTES } from '../http/compressed-responses.js';
import { FurthestBehindFirst } from './furthest-behind-first.js';
import { RequestBodies } from './request-bodies.js';
import { RequestTurns } from './request-turns.js';
import { DEFAULT_SUBSCRIBER_BACKLOG_TOTAL_BYTES } from './subscriber-backlog.js';

/**
 * What the process may hold besides its caches, each bound stated in
 * docs/configuration.md#memory; every field has a default.
 */
export interface MemoryOptions {
  /** Requests Yoga works on at once; more wait their turn (default 16). */
  readonly concurrentAnswers?: number;
  /** Request bodies held at once, in bytes; past it a new one gets OVERLOADED (default 16 MiB). */
  readonly requestBodiesBytes?: number;
  /** Answer bytes written and not yet taken by their sockets, all together (default 16 MiB). */
  readonly answerBacklogBytes?: number;
  /** Subscriber backlogs, all together (default 16 MiB). */
  readonly subscriberBacklogTotalBytes?: number;
}

export interface MemoryBounds {
  readonly turns: RequestTurns;
  readonly bodies: RequestBodies;
  readonly answerBacklog: FurthestBehindFirst;
  readonly subscriberBacklog: FurthestBehindFirst;
}

export function memoryBounds(options: MemoryOptions = {}, metrics?: GatewayMetrics): MemoryBounds {
  const bounds: MemoryBounds = {
    turns: new RequestTurns(options.concurrentAnswers),
    bodies: new RequestBodies(options.requestBodiesBytes),
    answerBacklog: new FurthestBehindFirst(
      options.answerBacklogBytes ?? DEFAULT_ANSWER_BACKLOG_TOTAL_BYTES,
    ),
    subscriberBacklog: new FurthestBehindFirst(
      options.subscriberBacklogTotalBytes ?? DEFAULT_SUBSCRIBER_BACKLOG_TOTAL_BYTES,
    ),
  };
  metrics?.sampled(
    'gateway_answers',
    'GraphQL requests Yoga works on (`active`, at most CONCURRENT_ANSWERS) and those waiting for their turn',
    ['state'],
    (set) => {
      const { active, waiting } = bounds.turns.counts;
      set(active, { state: 'active' });
      set(waiting, { state: 'waiting' });
    },
  );
  metrics?.sampled(
    'gateway_held_bytes',
    'Bytes held for requests in progress and slow clients, by what holds them (each bounded in total)',
    ['held'],
    (set) => {
      set(bounds.bodies.heldBytes, { held: 'request_bodies' });
      set(bounds.answerBacklog.totalBytes, { held: 'answer_backlog' });
      set(bounds.subscriberBacklog.totalBytes, { held: 'subscriber_backlog' });
    },
  );
  return bounds;
}
