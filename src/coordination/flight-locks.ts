/**
 * Which process fetches a resource that several want at once. Within one
 * process the in-flight map of CachedUpstream already shares the call; across
 * replicas a short lease per resource decides (redis-flight-locks.ts), and
 * the others wait for the answer to appear in the shared cache. One seam, two
 * stores side by side: memory-flight-locks.ts for a process alone.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface FlightLease {
  /** Gives the resource back; the holder calls it once its answer is stored (or its fetch failed). */
  release(): Promise<void>;
}

export interface FlightLocks {
  /** A lease when this process should fetch `key`; undefined while another process holds it. */
  acquire(key: string): Promise<FlightLease | undefined>;
  /** Whether some process still holds the lease of `key` (false once it is released or its holder died). */
  isHeld(key: string): Promise<boolean>;
}

/** A lease there is nothing to give back for: this process fetches without holding anything shared. */
export const NO_LEASE: FlightLease = { release: async () => undefined };

/**
 * Waits while another process holds the lease of `key`, looking every
 * `pollMs` for what it produces (`look`); undefined once the lease ends
 * without it (its holder failed or died), so the caller may take the lease.
 */
export async function awaitPeer<V>(
  locks: FlightLocks,
  key: string,
  look: () => Promise<V | undefined>,
  wait: { readonly pollMs: number; readonly signal: AbortSignal; timedOut(): Error },
): Promise<V | undefined> {
  do {
    try {
      await sleep(wait.pollMs, undefined, { signal: wait.signal });
    } catch {
      throw wait.timedOut();
    }
    const found = await look();
    if (found !== undefined) return found;
  } while (await locks.isHeld(key));
  return undefined;
}
