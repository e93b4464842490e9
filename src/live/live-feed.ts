/**
 * What the refresh poll announces: new milestones (for `milestoneCrossed`
 * subscribers) and new generations (for every replica's cache). With Redis,
 * announcements travel over Redis pub/sub (@graphql-yoga/redis-event-target),
 * so the one replica that polled feeds the subscribers of all of them, each
 * exactly once; without it, over an in-process event target.
 *
 * On a Redis Cluster, plain PUBLISH/SUBSCRIBE still: a message published on
 * any node reaches the subscribers of every node, and the cluster client's
 * own subscriber connection moves to another node (subscriptions included)
 * when its node fails. Sharded pub/sub (SPUBLISH, Redis 7) would keep a message
 * within one shard instead of the whole cluster bus, which matters for a
 * busy channel; these two carry a few messages per poll interval, and plain
 * pub/sub works on every Redis and managed offering the gateway supports.
 */

import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Generation } from '../freshness/generation.js';
import type { PrimaryLink } from '../machine/primary-link.js';
import type { RedisClient } from '../redis/connection.js';
import { isCluster } from '../redis/per-slot.js';
import type { MilestoneRecord } from '../upstream/records.js';
import { machineEventTarget, manyListeners } from './machine-event-target.js';
import { type SteadySubscriptions, steadySubscriptions } from './steady-subscriptions.js';

type Topics = {
  [topic: string]: [MilestoneRecord] | [Generation];
};

export interface LiveFeed {
  publishMilestone(milestone: MilestoneRecord): void;
  publishGeneration(generation: Generation): void;
  /** Every milestone announced from now on, until the consumer stops. */
  milestones(): AsyncIterableIterator<MilestoneRecord>;
  onGeneration(listener: (generation: Generation) => void): void;
  close(): Promise<void>;
}

/** `prefix` keeps deployments sharing one Redis apart (channels are not keys: ioredis' keyPrefix skips them). */
export function createLiveFeed(
  redis: RedisClient | undefined,
  prefix: string,
  logger: Logger,
  /** Without Redis, the primary of this machine's workers, which relays announcements to them all. */
  machine?: PrimaryLink,
): LiveFeed {
  const milestoneTopic = `${prefix}milestone-crossed`;
  const generationTopic = `${prefix}generation`;
  let subscriber: RedisClient | undefined;
  let subscriptions: SteadySubscriptions | undefined;
  const local =
    machine === undefined ? manyListeners(new EventTarget()) : machineEventTarget(machine);
  let pubSub = createPubSub<Topics>({ eventTarget: local });
  if (redis !== undefined) {
    // A connection in subscriber mode can send nothing else: one Redis gets a second connection,
    // which queues (re)subscriptions while Redis is away. A cluster client keeps a subscriber
    // connection of its own apart from its command connections (and moves it when its node
    // fails): a second cluster client would only learn the slots and open connections again.
    subscriber = isCluster(redis)
      ? redis
      : redis.duplicate({ enableOfflineQueue: true, lazyConnect: false, keyPrefix: '' });
    if (subscriber !== redis) subscriber.on('error', () => undefined);
    subscriptions = steadySubscriptions(subscriber, logger);
    // The event target does not wait for PUBLISH: a failure while Redis is down is logged, not left unhandled.
    const publishClient = {
      publish: (channel: string, message: string) =>
        redis.publish(channel, message).catch((error: unknown) => {
          logger.warn({ error: (error as Error).message, channel }, 'live feed: publish failed');
          return 0;
        }),
    } as unknown as RedisClient;
    pubSub = createPubSub<Topics>({
      eventTarget: createRedisEventTarget({
        publishClient,
        subscribeClient: subscriptions.client,
      }),
    });
  }
  const generations = pubSub.subscribe(generationTopic);
  const generationListeners: ((generation: Generation) => void)[] = [];
  void (async () => {
    for await (const generation of generations) {
      for (const listener of generationListeners) listener(generation as Generation);
    }
  })();

  return {
    publishMilestone: (milestone) => pubSub.publish(milestoneTopic, milestone),
    publishGeneration: (generation) => pubSub.publish(generationTopic, generation),
    milestones: () => pubSub.subscribe(milestoneTopic) as AsyncIterableIterator<MilestoneRecord>,
    onGeneration: (listener) => generationListeners.push(listener),
    async close() {
      subscriptions?.stop();
      await generations.return();
      // The cluster client is the stores' too: the gateway closes it, after this.
      if (subscriber === undefined) return;
      if (subscriber === redis) await subscriber.unsubscribe().catch(() => undefined);
      else await subscriber.quit().catch(() => subscriber?.disconnect());
    },
  };
}
