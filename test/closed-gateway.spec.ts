/**
 * A closed gateway leaves nothing of itself behind. Tests, `npm run bench` and `npm run simulate`
 * start many in one process, and one process-wide hook that holds on to a gateway (prom-client's
 * GC observer did, through its metrics registry) keeps its caches, up to hundreds of MB, for good.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../src/simulator/index.js';
import { SERVER_KEY, startStack } from './support/stack.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

let simulator: Simulator;
beforeAll(async () => {
  simulator = await startSimulator({ apiKeys: [SERVER_KEY] });
});
afterAll(() => simulator.close());

/** Starts a gateway, has it read, cache and count, closes it: only weak references come back. */
async function usedAndClosedGateway(): Promise<WeakRef<object>[]> {
  const stack = await startStack({ sharedSimulator: simulator });
  const answer = await stack.query(
    '{ topArtistsByStreams(limit: 3) { artist { name history { date } } } }',
  );
  expect(answer.body.errors).toBeUndefined();
  // The process's own figures, collected once per process, are on every gateway's /metrics.
  const metrics = await (await fetch(`${stack.url}/metrics`)).text();
  expect(metrics).toMatch(/^process_cpu_user_seconds_total \d/m);
  expect(metrics).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  expect(metrics).toMatch(/^gateway_upstream_requests_total\{/m);
  await stack.close();
  const { gateway } = stack;
  return [gateway, gateway.cache, gateway.metrics, gateway.yoga].map((part) => new WeakRef(part));
}

it('is garbage once closed, its caches and metrics with it, and the next shows the process figures too', async () => {
  const parts = [...(await usedAndClosedGateway()), ...(await usedAndClosedGateway())];
  const alive = () => parts.filter((part) => part.deref() !== undefined).length;
  // Whatever still holds a part never lets go; what does not is collected within a few cycles.
  for (let cycle = 0; cycle < 20 && alive() > 0; cycle++) {
    await new Promise(setImmediate);
    collectGarbage();
  }
  expect(alive()).toBe(0);
});
