/**
 * Pass-through mode: one upstream call proves a client key the gateway does
 * not know (never seen, or its acceptance lapsed). Every read of such a key
 * asks for the verdict; the first becomes the proof (it goes upstream with
 * the key, uncached), and the others, of the same request or of concurrent
 * ones, wait for it: then they read the cache like any accepted key, or are
 * refused without a call when the upstream rejected it. Within a process a
 * map of proofs under way decides who proves; across replicas the flight
 * lease of the key (its hash) does, and the others watch the key registry.
 * A proof that ends without a verdict (the upstream failed, the budget
 * refused) hands the proving to the next read.
 */
import { awaitPeer, type FlightLocks } from './flight-locks.js';
import type { KeyRegistry, KeyStatus } from './key-registry.js';

/** This read proves the key: it makes its call with it, then calls `done()` whatever the outcome. */
export interface Proof {
  done(): Promise<void>;
}

export interface KeyProofsOptions {
  readonly keys: KeyRegistry;
  readonly locks: FlightLocks;
  /** How often a replica waiting for another's proof looks at the registry. */
  readonly pollMs: number;
  /** The error a read gets when the proof it waits for outlasts the read's deadline. */
  timedOut(): Error;
}

export class KeyProofs {
  /** Proofs under way in this process, by key hash: settled (never rejected) when the proof ends. */
  readonly #underWay = new Map<string, Promise<void>>();

  constructor(private readonly options: KeyProofsOptions) {}

  /** The key's status; a `Proof` when the calling read is the one to prove it. */
  async verdict(keyId: string, signal: AbortSignal): Promise<'accepted' | 'rejected' | Proof> {
    const { keys, locks } = this.options;
    for (;;) {
      const status = await this.settled(keyId);
      if (status !== 'unknown') return status;
      if (this.#underWay.has(keyId)) continue;
      let settle = () => {};
      this.#underWay.set(
        keyId,
        new Promise<void>((resolve) => {
          settle = resolve;
        }),
      );
      const end = () => {
        this.#underWay.delete(keyId);
        settle();
      };
      const lease = await locks.acquire(proofKey(keyId));
      if (lease === undefined) {
        // Another replica proves it: its verdict lands in the shared registry.
        try {
          await awaitPeer(locks, proofKey(keyId), () => known(keys, keyId), {
            pollMs: this.options.pollMs,
            signal,
            timedOut: this.options.timedOut,
          });
        } finally {
          end();
        }
        continue;
      }
      const done = async () => {
        end();
        await lease.release();
      };
      // A proof may have ended between the registry's answer and this lease.
      let recheck: KeyStatus;
      try {
        recheck = await keys.status(keyId);
      } catch (error) {
        await done();
        throw error;
      }
      if (recheck !== 'unknown') {
        await done();
        return recheck;
      }
      return { done };
    }
  }

  /** The key's status once any proof of it under way in this process has ended; never starts one. */
  async settled(keyId: string): Promise<KeyStatus> {
    for (;;) {
      const underWay = this.#underWay.get(keyId);
      if (underWay === undefined) return this.options.keys.status(keyId);
      await underWay;
    }
  }
}

async function known(keys: KeyRegistry, keyId: string): Promise<KeyStatus | undefined> {
  const status = await keys.status(keyId);
  return status === 'unknown' ? undefined : status;
}

/** Upstream keys are paths (`/api/...`): this prefix never collides with a resource's lease. */
function proofKey(keyId: string): string {
  return `key-proof ${keyId}`;
}
