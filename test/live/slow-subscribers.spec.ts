/**
 * A subscriber that stops reading its socket (and stays connected) may fall
 * at most SUBSCRIBER_BACKLOG_BYTES behind: past it, the gateway ends its
 * subscription, closes its connection, frees its SUBSCRIPTIONS_PER_CLIENT
 * slot and counts it. A subscriber that keeps up is never ended.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../support/replicas.js';
import { type Subscriber, subscribe } from '../support/sse.js';
import type { Stack } from '../support/stack.js';
import {
  droppedSubscriptions,
  MILESTONES_WITH_HISTORY,
  milestoneRounds,
  stalledSubscriber,
  startLiveStack,
} from '../support/stalled-subscribers.js';

const PER_CLIENT = 2;
const BACKLOG_BYTES = 64 * 1024;
const QUERY = MILESTONES_WITH_HISTORY;
/** A poll reads the 100 most recent milestones: 100 new ones are 100 events. */
const PER_POLL = 100;
const MAX_POLLS = 200;

let stack: Stack;
let rounds: ReturnType<typeof milestoneRounds>;
beforeAll(async () => {
  stack = await startLiveStack({
    protection: { subscriptionsPerClient: PER_CLIENT, subscriberBacklogBytes: BACKLOG_BYTES },
  });
  rounds = milestoneRounds(stack, PER_POLL);
});
afterAll(() => stack.close());

const dropped = () => droppedSubscriptions(stack);

it('ends a subscriber that stopped reading once it is too far behind, and keeps one that reads', async () => {
  const reader: Subscriber = await subscribe(stack.url, QUERY);
  const stalled = await stalledSubscriber(stack, QUERY);
  expect(stalled.head).toMatch(/^HTTP\/1.1 200/);
  expect(stalled.head).toMatch(/content-type: text\/event-stream/i);

  // Both slots are held: a third subscription is refused.
  await expect(subscribe(stack.url, QUERY)).rejects.toThrow(/429/);

  // Publish until the gateway gives up on the stalled subscriber: its socket's buffers fill first.
  for (let poll = 0; (await dropped()) === 0; poll++) {
    if (poll === MAX_POLLS) throw new Error(`never ended after ${rounds.published()} events`);
    await rounds.publish();
  }
  expect(await dropped()).toBe(1);

  // Its slot is free again: a new subscription is accepted.
  let again: Subscriber | undefined;
  while (again === undefined) again = await subscribe(stack.url, QUERY).catch(() => undefined);

  // Its connection was closed: once read, the stream ends.
  stalled.socket.resume();
  await until(() => stalled.closed());

  // The reader kept up: it has every event, and goes on receiving them.
  await until(() => reader.events.length === rounds.published());
  await rounds.publish();
  await until(
    () => reader.events.length === rounds.published() && again.events.length === PER_POLL,
  );
  expect(reader.events.every((event) => event.errors === undefined)).toBe(true);
  expect(await dropped()).toBe(1);
  reader.close();
  again.close();
});
