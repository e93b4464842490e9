/**
 * Whole answers written and not yet taken by their clients' sockets are
 * bounded in total (ANSWER_BACKLOG_TOTAL_BYTES): a client that asks for
 * large answers and never reads them has its connection closed once what
 * waits for it passes the bound, with a warning in the log, while a client
 * that reads gets the same answer whole.
 *
 * Over loopback the kernel's buffers take megabytes from a socket nobody
 * reads, so the client here sends many requests at once on one connection
 * (HTTP/1.1 pipelining): their answers, one after the other, fill the
 * kernel's buffers, and the next waits in the gateway.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CapturedLog, captureLog } from '../support/log-capture.js';
import { until } from '../support/replicas.js';
import { type Stack, startStack } from '../support/stack.js';

/** Some 450 KB of JSON, more than a socket's buffers take from a client that does not read. */
const LARGE =
  '{ topArtistsByStreams(limit: 50) { rank artist { slug name history { date dailyStreams totalStreams monthlyListeners } } } }';
const BACKLOG_BYTES = 16 * 1024;
/** Answers asked for at once on the connection that reads none: more than the kernel's buffers take. */
const PIPELINED = 40;

let stack: Stack;
let log: CapturedLog;
beforeAll(async () => {
  log = captureLog();
  stack = await startStack({
    gateway: { logger: log.logger, memory: { answerBacklogBytes: BACKLOG_BYTES } },
  });
});
afterAll(() => stack.close());

it('closes the connection of a client that does not take its answer, past the total; a reader gets it whole', async () => {
  const identity = { 'accept-encoding': 'identity' };
  const whole = await stack.query(LARGE, undefined, identity);
  expect(whole.status).toBe(200);
  const length = Number(whole.headers.get('content-length'));
  expect(length).toBeGreaterThan(BACKLOG_BYTES * 10);

  // Asked for, never read, in identity.
  const { hostname, port } = new URL(stack.url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.pause();
  const body = JSON.stringify({ query: LARGE });
  const request =
    `POST /graphql HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  socket.write(request.repeat(PIPELINED));
  await until(() => log.lines().some((line) => line.includes('answer dropped')));
  const warning = JSON.parse(log.lines().find((line) => line.includes('answer dropped'))!) as {
    behindBytes: number;
    path: string;
  };
  expect(warning.path).toBe('/graphql');
  expect(warning.behindBytes).toBeGreaterThan(BACKLOG_BYTES);

  // Read at last, the connection ends before its answers do.
  let received = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  socket.resume();
  await once(socket, 'close');
  expect(received).toBeLessThan(PIPELINED * length);

  // Nothing is held for it any more, and a client that reads is answered in full.
  const held = async () =>
    Number(
      /^gateway_held_bytes\{held="answer_backlog"\} (\d+)/m.exec(
        await stack.gateway.metrics.scrape(),
      )?.[1],
    );
  expect(await held()).toBe(0);
  const again = await stack.query(LARGE, undefined, identity);
  expect(again.body.data).toEqual(whole.body.data);
});
