/**
 * The key registry in memory: a key's acceptance lapses after its TTL (it is
 * proven again by one call), while the key stays known as one the upstream
 * accepted, so that it is no new key for PASS_THROUGH_NEW_KEYS_PER_MINUTE;
 * a rejection forgets both.
 */
import { expect, it } from 'vitest';
import { MemoryKeyRegistry } from '../../src/coordination/memory-key-registry.js';
import { until } from '../support/until.js';

it('remembers an accepted key past its acceptance, and forgets it once rejected', async () => {
  const keys = new MemoryKeyRegistry({ acceptedTtlMs: 20, rejectedTtlMs: 60_000 });
  expect(await keys.status('k')).toBe('unknown');
  expect(await keys.wasAccepted('k')).toBe(false);

  await keys.markAccepted('k');
  expect(await keys.status('k')).toBe('accepted');
  await until(async () => (await keys.status('k')) === 'unknown', 5);
  expect(await keys.wasAccepted('k')).toBe(true);

  await keys.markRejected('k');
  expect(await keys.status('k')).toBe('rejected');
  expect(await keys.wasAccepted('k')).toBe(false);
});
