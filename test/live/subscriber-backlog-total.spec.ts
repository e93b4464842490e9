/**
 * All subscribers together may be at most SUBSCRIBER_BACKLOG_TOTAL_BYTES
 * behind, however far each one's own bound would let it fall: past it, the
 * subscriber furthest behind is ended first (its connection closed, counted
 * with the other dropped subscriptions), one less far behind is kept, and a
 * reader that keeps up is never touched.
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

const MiB = 1024 * 1024;
/** Each one's bound is never reached here: only the total ends a subscription. */
const OWN_BOUND = 256 * MiB;
const TOTAL = 256 * 1024;
const QUERY = MILESTONES_WITH_HISTORY;
const PER_POLL = 100;
const MAX_POLLS = 400;

let stack: Stack;
let rounds: ReturnType<typeof milestoneRounds>;
beforeAll(async () => {
  stack = await startLiveStack({
    protection: { subscriptionsPerClient: 10, subscriberBacklogBytes: OWN_BOUND },
    memory: { subscriberBacklogTotalBytes: TOTAL },
  });
  rounds = milestoneRounds(stack, PER_POLL);
});
afterAll(() => stack.close());

const metric = async (pattern: RegExp) =>
  Number(pattern.exec(await stack.gateway.metrics.scrape())?.[1] ?? Number.NaN);
const dropped = () => droppedSubscriptions(stack);
const held = () => metric(/^gateway_held_bytes\{held="subscriber_backlog"\} (\d+)/m);

it('ends the subscriber furthest behind once all of them hold too much, and keeps the others', async () => {
  const reader: Subscriber = await subscribe(stack.url, QUERY);
  const first = await stalledSubscriber(stack, QUERY);

  // The first falls behind (its socket's buffers full, then events wait here) to half the total.
  for (let poll = 0; (await held()) < TOTAL / 2; poll++) {
    if (poll === MAX_POLLS)
      throw new Error(`only ${await held()} bytes held after ${rounds.published()}`);
    await rounds.publish();
  }
  expect(await dropped()).toBe(0);

  // A second stops reading too, later: it is less far behind when the total is passed.
  const second = await stalledSubscriber(stack, QUERY);
  for (let poll = 0; (await dropped()) === 0; poll++) {
    if (poll === MAX_POLLS) throw new Error(`nobody ended after ${rounds.published()} events`);
    await rounds.publish();
  }
  expect(await dropped()).toBe(1);
  expect(await held()).toBeLessThanOrEqual(TOTAL);

  // Read again, the first finds its connection closed; the second is still subscribed.
  for (const stalled of [first, second]) stalled.socket.resume();
  await until(() => first.closed());
  const before = second.received();
  await rounds.publish();
  await until(() => second.received() > before);
  expect(second.closed()).toBe(false);

  // The reader kept up: it has every event.
  await until(() => reader.events.length === rounds.published());
  expect(reader.events.every((event) => event.errors === undefined)).toBe(true);
  reader.close();
  second.socket.destroy();
  first.socket.destroy();
});
