/**
 * Yoga behind the listener's own call (src/server/yoga-listener.ts): the server context reaches
 * the plugins whole, and a request whose handler throws is answered as Yoga's own listener
 * answers it, the listener's promise resolving all the same (its callers do not catch).
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import pino from 'pino';
import { afterEach, expect, it } from 'vitest';
import type { GatewayContext } from '../../src/schema/context.js';
import type { ResponseCacheSlot } from '../../src/server/response-cache/slot.js';
import type { ServerContext } from '../../src/server/server-context.js';
import { yogaListener } from '../../src/server/yoga-listener.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serve(plugin: Plugin<ServerContext>, slot: ResponseCacheSlot) {
  const yoga = createYoga<ServerContext, GatewayContext>({
    schema: createSchema({ typeDefs: 'type Query { ok: Boolean }' }),
    logging: false,
    plugins: [plugin],
  });
  const settled: Promise<void>[] = [];
  const listen = yogaListener(yoga, pino({ level: 'silent' }));
  const server = createServer((req, res) => {
    settled.push(listen(req, res, { responseCacheSlot: slot }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/graphql`, settled };
}

it('hands the plugins the server context whole: the request, its response and the slot', async () => {
  const slot: ResponseCacheSlot = {};
  const seen: ServerContext[] = [];
  const { url } = await serve(
    { onRequest: ({ serverContext }) => void seen.push(serverContext as ServerContext) },
    slot,
  );
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ __typename }' }),
  });
  expect(await answer.json()).toEqual({ data: { __typename: 'Query' } });
  expect(seen).toHaveLength(1);
  expect(seen[0]?.responseCacheSlot).toBe(slot);
  expect(seen[0]?.req?.method).toBe('POST');
  expect(seen[0]?.res?.headersSent).toBe(true);
});

it('answers a request whose handler throws as Yoga does, and resolves', async () => {
  const { url, settled } = await serve(
    {
      onRequest() {
        throw Object.assign(new Error('refused here'), { status: 418 });
      },
    },
    {},
  );
  const answer = await fetch(url);
  expect(answer.status).toBe(418);
  await answer.text();
  await expect(Promise.all(settled)).resolves.toBeDefined();
});
