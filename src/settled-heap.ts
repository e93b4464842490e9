/**
 * A full garbage collection, run once a process has warmed up and before it takes requests.
 *
 * The warm-ups (a worker's throwaway gateway and its simulator, the primary's rehearsal of a
 * first page) leave the young generation full of what they allocated and the old generation's
 * marking due. Left to V8, both are collected inside the first requests: a scavenge then copies
 * the warm-up's survivors, and marking steps run between the request's own work, while a client
 * waits. Collected here, the first requests start on a heap that owes nothing.
 *
 * Node offers no call to the collector without `--expose-gc`. The flag is set for the one
 * context made here, which V8 then gives its `gc`, and cleared again at once, as jest's leak
 * detector does: no other code, and no other context, sees a global `gc`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/** Collects the whole heap now; does nothing where the runtime refuses (best effort, never throws). */
export function settleHeap(): void {
  try {
    if (collect === undefined) {
      setFlagsFromString('--expose-gc');
      try {
        collect = runInNewContext('gc') as () => void;
      } finally {
        setFlagsFromString('--no-expose-gc');
      }
    }
    collect();
  } catch {
    // A runtime without the flag only leaves the collection to the first requests.
  }
}
