/**
 * A subscriber that stops reading its socket (and stays connected) may fall
 * at most SUBSCRIBER_BACKLOG_BYTES behind: past it, the gateway ends its
 * subscription, closes its connection, frees its SUBSCRIPTIONS_PER_CLIENT
 * slot and counts it. A subscriber that keeps up is never ended.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../support/replicas.js';
import { type Subscriber, subscribe } from '../support/sse.js';
import { type Stack, startStack } from '../support/stack.js';

const PER_CLIENT = 2;
const BACKLOG_BYTES = 64 * 1024;
/** Each event carries an artist's history: a few KB, so the socket's buffers fill in a few polls. */
const QUERY =
  'subscription { milestoneCrossed { id threshold artist { name history { date dailyStreams } } } }';
/** A poll reads the 100 most recent milestones: 100 new ones are 100 events. */
const PER_POLL = 100;
const MAX_POLLS = 200;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    gateway: {
      refreshPollMs: 3_600_000,
      protection: { subscriptionsPerClient: PER_CLIENT, subscriberBacklogBytes: BACKLOG_BYTES },
    },
  });
  await stack.gateway.refreshPoll!.pollNow();
});
afterAll(() => stack.close());

/** A subscription over a raw socket that reads the response's first bytes, then nothing more. */
async function stalledSubscriber(): Promise<{ socket: Socket; head: string }> {
  const { hostname, port } = new URL(stack.url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.write(
    `GET /graphql?${new URLSearchParams({ query: QUERY })} HTTP/1.1\r\n` +
      `Host: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  const [first] = (await once(socket, 'data')) as [Buffer];
  socket.pause();
  return { socket, head: first.toString() };
}

let published = 0;
async function publishRound(): Promise<void> {
  const slug = stack.simulator.data.allArtists()[0]!.slug;
  for (let i = 0; i < PER_POLL; i++) stack.simulator.publishMilestone(slug);
  await stack.gateway.refreshPoll!.pollNow();
  published += PER_POLL;
}

const dropped = async () =>
  Number(
    /^gateway_subscriptions_dropped_total (\d+)/m.exec(await stack.gateway.metrics.scrape())?.[1],
  );

it('ends a subscriber that stopped reading once it is too far behind, and keeps one that reads', async () => {
  const reader: Subscriber = await subscribe(stack.url, QUERY);
  const stalled = await stalledSubscriber();
  expect(stalled.head).toMatch(/^HTTP\/1.1 200/);
  expect(stalled.head).toMatch(/content-type: text\/event-stream/i);
  let closedByGateway = false;
  stalled.socket.once('close', () => (closedByGateway = true));

  // Both slots are held: a third subscription is refused.
  await expect(subscribe(stack.url, QUERY)).rejects.toThrow(/429/);

  // Publish until the gateway gives up on the stalled subscriber: its socket's buffers fill first.
  for (let poll = 0; (await dropped()) === 0; poll++) {
    if (poll === MAX_POLLS) throw new Error(`never ended after ${published} events`);
    await publishRound();
  }
  expect(await dropped()).toBe(1);

  // Its slot is free again: a new subscription is accepted.
  let again: Subscriber | undefined;
  while (again === undefined) again = await subscribe(stack.url, QUERY).catch(() => undefined);

  // Its connection was closed: once read, the stream ends.
  stalled.socket.resume();
  stalled.socket.on('data', () => undefined);
  await until(() => closedByGateway);

  // The reader kept up: it has every event, and goes on receiving them.
  await until(() => reader.events.length === published);
  await publishRound();
  await until(() => reader.events.length === published && again.events.length === PER_POLL);
  expect(reader.events.every((event) => event.errors === undefined)).toBe(true);
  expect(await dropped()).toBe(1);
  reader.close();
  again.close();
});
