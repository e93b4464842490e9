/**
 * A subscription's SUBSCRIPTIONS_PER_CLIENT slot is given back on every path
 * a subscription can end: refused for its Accept header (406), refused for
 * its key, its client gone, completed by its client. Twelve such ends from
 * one client, then as many streams open as the limit allows, and no more.
 */
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openSubscriptions } from '../support/prometheus.js';
import { until } from '../support/replicas.js';
import { CLIENT_KEY, type Stack, startStack } from '../support/stack.js';

const PER_CLIENT = 3;
const QUERY = 'subscription { milestoneCrossed { id } }';
const KEY = { authorization: `Bearer ${CLIENT_KEY}` };

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    passThrough: true,
    gateway: { protection: { subscriptionsPerClient: PER_CLIENT } },
  });
});
afterAll(() => stack.close());

/** A subscription POSTed with these headers: its status once its answer is read whole. */
async function post(headers: Record<string, string>): Promise<number> {
  const response = await fetch(`${stack.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: QUERY }),
  });
  await response.arrayBuffer();
  return response.status;
}

it('12 subscriptions refused or ended, of every kind, leave every slot free', async () => {
  // Refused for the Accept header: a JSON-only client cannot take a stream.
  for (let i = 0; i < 3; i++) expect(await post({ ...KEY, accept: 'application/json' })).toBe(406);

  // Refused for the key: none, then one the upstream rejected (learnt by a query first).
  expect(await post({ accept: 'text/event-stream' })).toBe(401);
  const rejected = { authorization: 'Bearer a-key-the-upstream-rejects' };
  expect((await stack.query('{ charts { name } }', undefined, rejected)).status).toBe(401);
  for (let i = 0; i < 2; i++)
    expect(await post({ ...rejected, accept: 'text/event-stream' })).toBe(401);

  // Client gone: an SSE stream opened, then dropped by its client.
  for (let i = 0; i < 3; i++) {
    const gone = await subscribeWithKey();
    gone.close();
    await until(async () => (await openSubscriptions(stack.gateway)) === 0);
  }

  // Completed by its client: a graphql-ws subscription, then its `complete`.
  const ws = createClient({
    url: `${stack.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${CLIENT_KEY}` },
    retryAttempts: 0,
  });
  for (let i = 0; i < 3; i++) {
    const unsubscribe = ws.subscribe({ query: QUERY }, { next() {}, error() {}, complete() {} });
    await until(async () => (await openSubscriptions(stack.gateway)) === 1);
    unsubscribe();
    await until(async () => (await openSubscriptions(stack.gateway)) === 0);
  }
  await ws.dispose();

  // Every slot is free: the limit's worth of streams open, and one more is refused.
  const open = [];
  for (let i = 0; i < PER_CLIENT; i++) open.push(await subscribeWithKey());
  expect(await openSubscriptions(stack.gateway)).toBe(PER_CLIENT);
  expect(await post({ ...KEY, accept: 'text/event-stream' })).toBe(429);
  for (const subscriber of open) subscriber.close();
});

/** An SSE subscription carrying the client's key. */
async function subscribeWithKey() {
  const controller = new AbortController();
  const response = await fetch(`${stack.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...KEY },
    body: JSON.stringify({ query: QUERY }),
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  return { close: () => controller.abort() };
}
