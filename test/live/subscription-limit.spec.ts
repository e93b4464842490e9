/**
 * Open subscriptions per client are bounded (SUBSCRIPTIONS_PER_CLIENT): past it a new one is
 * refused at once with TOO_MANY_SUBSCRIPTIONS and HTTP 429, the open ones go on, and closing
 * one, from the client's side, makes room for another.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Subscriber, subscribe } from '../support/sse.js';
import { type Stack, startStack } from '../support/stack.js';

const PER_CLIENT = 2;
const QUERY = 'subscription { milestoneCrossed { threshold } }';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ gateway: { protection: { subscriptionsPerClient: PER_CLIENT } } });
});
afterAll(() => stack.close());

/** One more subscription's answer when it is refused: status and the error's extensions. */
async function refused(): Promise<{ status: number; extensions: unknown }> {
  const response = await fetch(`${stack.url}/graphql?${new URLSearchParams({ query: QUERY })}`, {
    headers: { accept: 'text/event-stream' },
  });
  const text = await response.text();
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data: ') || line.startsWith('{'))
    .map((line) => (line.startsWith('data: ') ? line.slice(6) : line))
    .map((json) => JSON.parse(json) as { errors?: { extensions?: unknown }[] })
    .find((payload) => payload.errors !== undefined);
  return { status: response.status, extensions: data?.errors?.[0]?.extensions };
}

it('refuses one more than SUBSCRIPTIONS_PER_CLIENT, and makes room when one closes', async () => {
  const open: Subscriber[] = [];
  for (let i = 0; i < PER_CLIENT; i++) open.push(await subscribe(stack.url, QUERY));
  const over = await refused();
  expect(over.status).toBe(429);
  expect(over.extensions).toMatchObject({ code: 'TOO_MANY_SUBSCRIPTIONS', maximum: PER_CLIENT });

  open.pop()!.close();
  // The gateway learns of the closed stream when its socket closes: wait for the room, not a time.
  let again: Subscriber | undefined;
  while (again === undefined) {
    again = await subscribe(stack.url, QUERY).catch(() => undefined);
  }
  open.push(again);
  expect((await refused()).status).toBe(429);
  for (const subscriber of open) subscriber.close();
});
