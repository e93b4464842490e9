/**
 * Connections opened ahead: a request whose first call leaves opens, while
 * that call is in flight, the connections its estimate says the rest will
 * need, so its next wave does not wait for handshakes. Connections are not
 * calls: the day's budget and the call log see only requests.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WarmConnections } from '../src/upstream/warm-connections.js';
import { type Stack, startStack } from './support/stack.js';
import { until } from './support/until.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const TOP_10 = '{ topArtistsByStreams(limit: 10) { rank artist { slug history { date } } } }';

it("opens the next wave's connections while the first call is in flight, and no more after", async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  stack.simulator.injectFault({ kind: 'hold', until: held }, { path: '/api/v1/leaderboard' });
  stack.simulator.resetCalls();
  const before = stack.simulator.connectionsAccepted;
  const answer = stack.query(TOP_10);

  // The estimate is 11 calls: the leaderboard's connection and ten for the histories.
  await until(() => stack.simulator.connectionsAccepted - before >= 11, 0);
  expect(stack.simulator.calls.map((call) => call.rawPath)).toEqual([
    '/api/v1/leaderboard/streams',
  ]);
  release();
  const response = await answer;
  stack.simulator.clearFaults();

  expect(response.body.errors).toBeUndefined();
  expect(response.body.extensions?.cost).toMatchObject({ upstreamCalls: 11 });
  expect(stack.upstreamCalls()).toBe(11);
  // The histories went out on the connections opened during the first wave.
  expect(stack.simulator.connectionsAccepted - before).toBe(11);
});

it('a request answered from the cache opens no connection', async () => {
  await stack.query(TOP_10);
  const before = stack.simulator.connectionsAccepted;
  stack.simulator.resetCalls();
  const response = await stack.query(
    '{ topArtistsByStreams(limit: 10) { artist { slug history { date } } } }',
  );
  expect(response.body.errors).toBeUndefined();
  expect(stack.upstreamCalls()).toBe(0);
  expect(stack.simulator.connectionsAccepted).toBe(before);
});

it('a page of one call opens no connection ahead', async () => {
  const slug = stack.simulator.data.allArtists()[42]!.slug;
  const before = stack.simulator.connectionsAccepted;
  stack.simulator.resetCalls();
  const response = await stack.query('query ($slug: String!) { artist(slug: $slug) { name } }', {
    slug,
  });
  expect(response.body.errors).toBeUndefined();
  expect(stack.upstreamCalls()).toBe(1);
  // Its own, at most: none if an idle one is still open (the simulator may have closed them).
  expect(stack.simulator.connectionsAccepted - before).toBeLessThanOrEqual(1);
});

describe('WarmConnections on its own', () => {
  let server: Server;
  let origin: URL;
  const open = new Set<Socket>();
  let accepted = 0;
  beforeAll(async () => {
    server = createServer();
    server.on('connection', (socket: Socket) => {
      accepted += 1;
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterEach(async () => {
    for (const socket of open) socket.destroy();
    await until(() => open.size === 0, 0);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const connect = (warm: WarmConnections) =>
    new Promise<Socket>((resolve, reject) =>
      warm.connector(
        { hostname: origin.hostname, host: origin.host, protocol: 'http:', port: origin.port },
        (error, socket) => (error === null ? resolve(socket) : reject(error)),
      ),
    );

  it('hands out what it opened ahead before opening more, counting those on their way', async () => {
    const warm = new WarmConnections(origin, { connectTimeoutMs: 2_000, idleMs: 60_000 });
    const start = accepted;
    warm.warm(3);
    warm.warm(3);
    expect(warm.spare).toBe(3);
    // Asked for before any has connected: it waits for one of the three.
    const sockets = await Promise.all([connect(warm), connect(warm), connect(warm)]);
    expect(warm.spare).toBe(0);
    await until(() => open.size === 3, 0);
    const fourth = await connect(warm);
    await until(() => open.size === 4, 0);
    expect(accepted - start).toBe(4);
    for (const socket of [...sockets, fourth]) socket.destroy();
    warm.close();
  });

  it('closes a connection no call took once it has been idle for idleMs, and all of them on close', async () => {
    const warm = new WarmConnections(origin, { connectTimeoutMs: 2_000, idleMs: 20 });
    const start = accepted;
    warm.warm(2);
    await until(() => accepted - start === 2, 0);
    await until(() => warm.spare === 0 && open.size === 0, 0);

    const lasting = new WarmConnections(origin, { connectTimeoutMs: 2_000, idleMs: 60_000 });
    lasting.warm(2);
    await until(() => open.size === 2, 0);
    lasting.close();
    await until(() => open.size === 0, 0);
    expect(lasting.spare).toBe(0);
  });

  it('never hands out a connection the other side has closed', async () => {
    const warm = new WarmConnections(origin, { connectTimeoutMs: 2_000, idleMs: 60_000 });
    const start = accepted;
    warm.warm(1);
    await until(() => accepted - start === 1 && warm.spare === 1 && open.size === 1, 0);
    for (const socket of open) socket.destroy();
    await until(() => warm.spare === 0, 0);
    const socket = await connect(warm);
    expect(accepted - start).toBe(2);
    expect(socket.destroyed).toBe(false);
    socket.destroy();
    warm.close();
  });

  it('a call waiting for a connection opened ahead gets its failure, as it would its own', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const nowhere = new URL(`http://127.0.0.1:${port}`);
    const warm = new WarmConnections(nowhere, { connectTimeoutMs: 2_000, idleMs: 60_000 });
    warm.warm(1);
    const refused = new Promise<Error | null>((resolve) =>
      warm.connector(
        { hostname: '127.0.0.1', host: nowhere.host, protocol: 'http:', port: nowhere.port },
        (...[error]) => resolve(error),
      ),
    );
    expect(((await refused) as NodeJS.ErrnoException | null)?.code).toBe('ECONNREFUSED');
    expect(warm.spare).toBe(0);
    warm.close();
  });
});
