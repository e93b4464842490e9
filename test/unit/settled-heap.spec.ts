/**
 * A process collects its whole heap after its warm-up, before it listens (settled-heap.ts): the
 * collection must really run (an object nothing holds is gone after it), must leave no global
 * `gc` behind for other code to find, and must leave `--expose-gc` on where it was given.
 */
import { execFileSync } from 'node:child_process';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { settleHeap } from '../../src/settled-heap.js';

it('collects what nothing holds any more', async () => {
  const dropped = new WeakRef({ warmUpLeftover: new Array(1_000).fill('x') });
  // A WeakRef's target is kept for the rest of the turn that made it.
  await nextTurn();

  settleHeap();

  expect(dropped.deref()).toBeUndefined();
});

it('leaves no gc function in the global scope, however often it runs', () => {
  const exposedBefore = 'gc' in globalThis;

  settleHeap();
  settleHeap();

  expect('gc' in globalThis).toBe(exposedBefore);
  expect(new Function('return typeof gc')()).toBe(exposedBefore ? 'function' : 'undefined');
});

it('leaves --expose-gc as the process was started with it', () => {
  const script = [
    "import { runInNewContext } from 'node:vm';",
    "import { settleHeap } from './src/settled-heap.ts';",
    'settleHeap();',
    "process.stdout.write(typeof runInNewContext('gc'));",
  ].join('\n');
  const output = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: fileURLToPath(new URL('../..', import.meta.url)), encoding: 'utf8' },
  );

  expect(output).toBe('function');
});
