/**
 * A full garbage collection, run once a process has warmed up and before it takes requests.
 *
 * The warm-ups (a worker's throwaway gateway and its simulator, the primary's rehearsal of a
 * first page) leave the young generation full of what they allocated and the old generation's
 * marking due. Left to V8, both are collected inside the first requests: a scavenge then copies
 * the warm-up's survivors, and marking steps run between the request's own work, while a client
 * waits. Collected here, the first requests start on a heap that owes nothing.
 *
 * Node offers no call to the collector without `--expose-gc`. Unless the process was started
 * with it, the flag is set for the one context made here, which V8 then gives its `gc`, and
 * cleared again at once, as jest's leak detector does: no other code, and no other context,
 * sees a global `gc`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/** Collects the whole heap now; does nothing where the runtime refuses (best effort, never throws). */
export function settleHeap(): void {
  try {
    collect ??= exposedCollector() ?? borrowedCollector();
    collect();
  } catch {
    // A runtime without the flag only leaves the collection to the first requests.
  }
}

/** The `gc` of a process started with `--expose-gc`: its flag is then left as it was given. */
function exposedCollector(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc;
  return typeof exposed === 'function' ? (exposed as () => void) : undefined;
}

function borrowedCollector(): () => void {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
