/**
 * The upstream's condition as this process knows it, one of the read
 * policy's inputs (read-policy.ts):
 * - `failing`: the circuit is not closed, or the last call to come back
 *   failed (no answer, a 5xx): nobody is kept waiting on a call that is
 *   likely to fail too;
 * - `slow`: a call has been out longer than the stale grace with nothing
 *   answered since it left: a hang shows itself only by the time it takes;
 * - `answering` otherwise.
 */
import type { CircuitState } from '../coordination/circuit-breaker.js';
import type { UpstreamHealth } from '../upstream/call-watch.js';

export type Condition = 'answering' | 'slow' | 'failing';

export const CONDITIONS: readonly Condition[] = ['answering', 'slow', 'failing'];

export function conditionOf(
  health: UpstreamHealth,
  circuit: CircuitState,
  graceMs: number,
): Condition {
  if (circuit !== 'closed' || health.lastFailed) return 'failing';
  return health.unansweredMs > graceMs ? 'slow' : 'answering';
}
