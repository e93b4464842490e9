/** `/ready` (src/server/plugins/use-readiness.ts): its report on its path alone, 503 when it cannot be told. */
import { createSchema, createYoga } from 'graphql-yoga';
import { expect, it } from 'vitest';
import { useReadiness } from '../../src/server/plugins/use-readiness.js';

const yogaWith = (report: () => { ready: boolean } & Record<string, unknown>) =>
  createYoga({
    schema: createSchema({ typeDefs: 'type Query { ok: Boolean }' }),
    logging: false,
    plugins: [useReadiness({ endpoint: '/ready', report })],
  });

it('answers the report on the path, 200 when ready and 503 when not, whatever the query', async () => {
  let ready = true;
  const yoga = yogaWith(() => ({ ready, draining: !ready }));
  const first = await yoga.fetch('http://localhost/ready?probe=1');
  expect(first.status).toBe(200);
  expect(await first.json()).toEqual({ ready: true, draining: false });
  ready = false;
  expect((await yoga.fetch('http://localhost/ready')).status).toBe(503);
  // Another path is not readiness, though it ends like it.
  expect((await yoga.fetch('http://localhost/graphql/ready')).status).not.toBe(503);
});

it('is not ready when readiness cannot be told', async () => {
  const yoga = yogaWith(() => {
    throw new Error('store unreachable');
  });
  const answer = await yoga.fetch('http://localhost/ready');
  expect(answer.status).toBe(503);
  expect(await answer.text()).toBe('store unreachable');
});
