/**
 * The subscriber side of the live feed as @graphql-yoga/redis-event-target
 * uses it (`on`, `subscribe`, `unsubscribe`), keeping every channel it was
 * asked for. The event target does not wait for SUBSCRIBE: a refusal would
 * be an unhandled rejection, which ends the process. One Redis queues it
 * while away (the connection's offline queue), but a cluster refuses it
 * while its subscriber connection has no node yet (at start, or between a
 * node's failure and its replacement): it is then tried again until it holds
 * or the channel is given up.
 */
import type { Logger } from 'pino';
import type { RedisClient } from '../redis/connection.js';

const RETRY_MS = 250;

export interface SteadySubscriptions {
  /** What the event target is given as its subscribeClient. */
  readonly client: RedisClient;
  /** No retry after this (the feed is closing). */
  stop(): void;
}

export function steadySubscriptions(subscriber: RedisClient, logger: Logger): SteadySubscriptions {
  const wanted = new Set<string>();
  let warned = false;
  const subscribe = (channel: string): void => {
    subscriber.subscribe(channel).then(
      () => {
        warned = false;
      },
      (error: unknown) => {
        if (!wanted.has(channel)) return;
        // Once per outage, not per try.
        if (!warned)
          logger.warn(
            { error: (error as Error).message, channel },
            'live feed: subscribe refused, trying again',
          );
        warned = true;
        setTimeout(() => {
          if (wanted.has(channel)) subscribe(channel);
        }, RETRY_MS).unref();
      },
    );
  };
  const client = {
    on(event: string, listener: (...args: unknown[]) => void) {
      subscriber.on(event, listener);
      return client;
    },
    subscribe(channel: string) {
      wanted.add(channel);
      subscribe(channel);
      return Promise.resolve(wanted.size);
    },
    unsubscribe(channel: string) {
      wanted.delete(channel);
      return subscriber.unsubscribe(channel).catch(() => 0);
    },
  };
  return { client: client as unknown as RedisClient, stop: () => wanted.clear() };
}
