/**
 * All subscribers together may be at most SUBSCRIBER_BACKLOG_TOTAL_BYTES
 * behind, however far each one's own bound would let it fall: past it, the
 * subscriber furthest behind is ended first (its connection closed, counted
 * with the other dropped subscriptions), one less far behind is kept, and a
 * reader that keeps up is never touched.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../support/replicas.js';
import { type Subscriber, subscribe } from '../support/sse.js';
import { type Stack, startStack } from '../support/stack.js';

const MiB = 1024 * 1024;
/** Each one's bound is never reached here: only the total ends a subscription. */
const OWN_BOUND = 256 * MiB;
const TOTAL = 256 * 1024;
/** A few hundred bytes an event: a round of 100 puts some 33 KB more behind a stalled subscriber. */
const QUERY =
  'subscription { milestoneCrossed { id threshold artist { name history { date dailyStreams } } } }';
const PER_POLL = 100;
const MAX_POLLS = 400;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    gateway: {
      refreshPollMs: 3_600_000,
      protection: { subscriptionsPerClient: 10, subscriberBacklogBytes: OWN_BOUND },
      memory: { subscriberBacklogTotalBytes: TOTAL },
    },
  });
  await stack.gateway.refreshPoll!.pollNow();
});
afterAll(() => stack.close());

/** A subscription over a raw socket that reads the response's head, then nothing more. */
async function stalledSubscriber(): Promise<{
  socket: Socket;
  closed: () => boolean;
  received: () => number;
}> {
  const { hostname, port } = new URL(stack.url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.write(
    `GET /graphql?${new URLSearchParams({ query: QUERY })} HTTP/1.1\r\n` +
      `Host: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  const [head] = (await once(socket, 'data')) as [Buffer];
  expect(head.toString()).toMatch(/^HTTP\/1.1 200/);
  socket.pause();
  let closed = false;
  let received = 0;
  socket.once('close', () => (closed = true));
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  return { socket, closed: () => closed, received: () => received };
}

let published = 0;
async function publishRound(): Promise<void> {
  const slug = stack.simulator.data.allArtists()[0]!.slug;
  for (let i = 0; i < PER_POLL; i++) stack.simulator.publishMilestone(slug);
  await stack.gateway.refreshPoll!.pollNow();
  published += PER_POLL;
}

const metric = async (pattern: RegExp) =>
  Number(pattern.exec(await stack.gateway.metrics.scrape())?.[1] ?? Number.NaN);
const dropped = () => metric(/^gateway_subscriptions_dropped_total (\d+)/m);
const held = () => metric(/^gateway_held_bytes\{held="subscriber_backlog"\} (\d+)/m);

it('ends the subscriber furthest behind once all of them hold too much, and keeps the others', async () => {
  const reader: Subscriber = await subscribe(stack.url, QUERY);
  const first = await stalledSubscriber();

  // The first falls behind (its socket's buffers full, then events wait here) to half the total.
  for (let poll = 0; (await held()) < TOTAL / 2; poll++) {
    if (poll === MAX_POLLS) throw new Error(`only ${await held()} bytes held after ${published}`);
    await publishRound();
  }
  expect(await dropped()).toBe(0);

  // A second stops reading too, later: it is less far behind when the total is passed.
  const second = await stalledSubscriber();
  for (let poll = 0; (await dropped()) === 0; poll++) {
    if (poll === MAX_POLLS) throw new Error(`nobody ended after ${published} events`);
    await publishRound();
  }
  expect(await dropped()).toBe(1);
  expect(await held()).toBeLessThanOrEqual(TOTAL);

  // Read again, the first finds its connection closed; the second is still subscribed.
  for (const stalled of [first, second]) stalled.socket.resume();
  await until(() => first.closed());
  const before = second.received();
  await publishRound();
  await until(() => second.received() > before);
  expect(second.closed()).toBe(false);

  // The reader kept up: it has every event.
  await until(() => reader.events.length === published);
  expect(reader.events.every((event) => event.errors === undefined)).toBe(true);
  reader.close();
  second.socket.destroy();
  first.socket.destroy();
});
