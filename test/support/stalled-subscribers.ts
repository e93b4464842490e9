/**
 * Subscribers that stop reading, and milestones to fall behind on: the
 * slow-subscriber specs publish rounds of new milestones in the simulator,
 * seen by the gateway's refresh poll, until a stalled subscriber is too far
 * behind.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { type Stack, type StackOptions, startStack } from './stack.js';

/** An artist's history in each event: a few hundred bytes, so a round of 100 events is some 33 KB. */
export const MILESTONES_WITH_HISTORY =
  'subscription { milestoneCrossed { id threshold artist { name history { date dailyStreams } } } }';

export interface StalledSubscriber {
  readonly socket: Socket;
  /** The first bytes of the answer: its status line and headers. */
  readonly head: string;
  /** Whether its connection closed (seen only once it reads again). */
  closed(): boolean;
  /** Bytes read since it reads again. */
  received(): number;
}

/** A subscription over a raw socket that reads the response's first bytes, then nothing more. */
export async function stalledSubscriber(stack: Stack, query: string): Promise<StalledSubscriber> {
  const { hostname, port } = new URL(stack.url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.write(
    `GET /graphql?${new URLSearchParams({ query })} HTTP/1.1\r\n` +
      `Host: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  const [first] = (await once(socket, 'data')) as [Buffer];
  socket.pause();
  let closed = false;
  let received = 0;
  socket.once('close', () => (closed = true));
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  return { socket, head: first.toString(), closed: () => closed, received: () => received };
}

/** A stack whose refresh poll runs only when told (`pollNow`), its first poll done: no milestone is new yet. */
export async function startLiveStack(gateway: StackOptions['gateway']): Promise<Stack> {
  const stack = await startStack({ gateway: { refreshPollMs: 3_600_000, ...gateway } });
  await stack.gateway.refreshPoll!.pollNow();
  return stack;
}

/** Rounds of `perRound` new milestones, each seen by one refresh poll: `perRound` events for every subscriber. */
export function milestoneRounds(stack: Stack, perRound: number) {
  let published = 0;
  return {
    async publish(): Promise<void> {
      const slug = stack.simulator.data.allArtists()[0]!.slug;
      for (let i = 0; i < perRound; i++) stack.simulator.publishMilestone(slug);
      await stack.gateway.refreshPoll!.pollNow();
      published += perRound;
    },
    /** Events published so far. */
    published: () => published,
  };
}

/** `gateway_subscriptions_dropped_total` of the stack's gateway. */
export async function droppedSubscriptions(stack: Stack): Promise<number> {
  return Number(
    /^gateway_subscriptions_dropped_total (\d+)/m.exec(await stack.gateway.metrics.scrape())?.[1],
  );
}
