/**
 * Two gateways on one simulator, started before and closed after the
 * calling suite: one with the default MAX_UPSTREAM_COST (100), one `strict`
 * with `strictMaxCost`, so a test can meet either limit with small queries.
 */
import { afterAll, beforeAll } from 'vitest';
import { type Stack, startStack } from './stack.js';

export interface CostStacks {
  readonly stack: Stack;
  readonly strict: Stack;
}

export function useCostStacks(strictMaxCost = 10): CostStacks {
  let stack: Stack | undefined;
  let strict: Stack | undefined;
  beforeAll(async () => {
    stack = await startStack();
    strict = await startStack({
      sharedSimulator: stack.simulator,
      gateway: { protection: { maxUpstreamCost: strictMaxCost } },
    });
  });
  afterAll(async () => {
    await strict?.close();
    await stack?.close();
  });
  const started = (value: Stack | undefined) => {
    if (value === undefined) throw new Error('the cost stacks start in beforeAll');
    return value;
  };
  return {
    get stack() {
      return started(stack);
    },
    get strict() {
      return started(strict);
    },
  };
}
