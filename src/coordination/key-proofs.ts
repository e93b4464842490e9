/**
 * Pass-through mode: one upstream call proves a client key the gateway does
 * not know (never seen, or its acceptance lapsed). Every read of such a key
 * asks for the verdict; the first becomes the proof (it goes upstream with
 * the key, uncached), and the others, of the same request or of concurrent
 * ones, wait for it: then they read the cache like any accepted key, or are
 * refused without a call when the upstream rejected it. Within a process a
 * map of proofs under way decides who proves; across replicas the flight
 * lease of the key (its hash) does, and the others watch the key registry.
 * A proof that ends because the upstream failed ends the reads waiting on
 * it in this process with the same failure: each proving the key in turn
 * would hold them one deadline after another. So are the key's reads that
 * come while the upstream is still failing, for up to `retryAfterMs`: the
 * key is proven again at most that often during an outage. One that ends without a
 * verdict otherwise (the budget refused) hands the proving to the next read.
 * Every wait honours the waiting read's deadline.
 */
import { performance } from 'node:perf_hooks';
import { LRUCache } from 'lru-cache';
import { UpstreamError } from '../upstream/errors.js';
import { awaitPeer, type FlightLocks } from './flight-locks.js';
import type { KeyRegistry, KeyStatus } from './key-registry.js';

/**
 * This read proves the key: it makes its call with it, then calls `done()` whatever the outcome,
 * with the upstream's failure when that is what ended it.
 */
export interface Proof {
  done(failure?: unknown): Promise<void>;
}

/** The proving call, its end told to the reads waiting on it: a failure of the upstream's ends them too. */
export function proven<T>(proof: Proof, call: Promise<T>): Promise<T> {
  return call.then(
    async (entry) => {
      await proof.done();
      return entry;
    },
    async (error: unknown) => {
      const upstreamFailed = error instanceof UpstreamError && error.code === 'UPSTREAM_ERROR';
      await proof.done(upstreamFailed ? error : undefined);
      throw error;
    },
  );
}

export interface KeyProofsOptions {
  readonly keys: KeyRegistry;
  readonly locks: FlightLocks;
  /** How often a replica waiting for another's proof looks at the registry. */
  readonly pollMs: number;
  /** The error a read gets when the proof it waits for outlasts the read's deadline. */
  timedOut(): Error;
  /** Whether the upstream is failing now, as the read path knows it. */
  upstreamFailing(): boolean;
  /** How long after a proof failed by the upstream the key is not proven again while it still fails. */
  readonly retryAfterMs: number;
}

/** Keys whose last proof the upstream failed, remembered: far more than a deployment's clients. */
const FAILED_PROOFS_KEPT = 10_000;

export class KeyProofs {
  /**
   * Proofs under way in this process, by key hash: settled (never rejected) when the proof ends,
   * with the upstream's failure when that ended it.
   */
  readonly #underWay = new Map<string, Promise<Ended>>();
  /**
   * Registry lookups under way, by key hash: the reads that ask at once (a page's first wave)
   * share one, with Redis one round trip instead of one each.
   */
  readonly #asking = new Map<string, Promise<KeyStatus>>();
  /** The failure that ended each key's last proof, and when (performance.now()). */
  readonly #failed = new LRUCache<string, { readonly failure: unknown; readonly at: number }>({
    max: FAILED_PROOFS_KEPT,
  });

  constructor(private readonly options: KeyProofsOptions) {}

  /** Whether `verdict` would answer `accepted` at once: no proof under way, the registry sure now. */
  acceptedNow(keyId: string): boolean {
    return !this.#underWay.has(keyId) && this.options.keys.statusNow?.(keyId) === 'accepted';
  }

  /**
   * The key's status; a `Proof` when the calling read is the one to prove it. `unknownNow`: the
   * registry said `unknown` of the key moments ago, so a read that finds no proof under way here
   * goes straight to the proof's lease, after which the registry is read again anyway.
   */
  async verdict(
    keyId: string,
    signal: AbortSignal,
    unknownNow = false,
  ): Promise<'accepted' | 'rejected' | Proof> {
    const { keys, locks } = this.options;
    let askRegistry = !unknownNow;
    for (;;) {
      const underWay = this.#underWay.get(keyId);
      if (underWay !== undefined) {
        askRegistry = true;
        const ended = await this.#within(underWay, signal);
        if (ended.failure !== undefined) throw ended.failure;
        continue;
      }
      if (askRegistry) {
        const status = await this.#status(keyId);
        if (status !== 'unknown') return status;
        if (this.#underWay.has(keyId)) continue;
      }
      askRegistry = true;
      this.#failedRecently(keyId);
      let settle = (_ended: Ended) => {};
      this.#underWay.set(
        keyId,
        new Promise<Ended>((resolve) => {
          settle = resolve;
        }),
      );
      const end = (failure?: unknown) => {
        this.#underWay.delete(keyId);
        if (failure === undefined) this.#failed.delete(keyId);
        else this.#failed.set(keyId, { failure, at: performance.now() });
        settle(failure === undefined ? {} : { failure });
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
      const done = async (failure?: unknown) => {
        end(failure);
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

  /**
   * The key's status once any proof of it under way in this process has ended; never starts one.
   * Rejects with the read's timeout when `signal` ends first.
   */
  async settled(keyId: string, signal: AbortSignal): Promise<KeyStatus> {
    for (;;) {
      const underWay = this.#underWay.get(keyId);
      if (underWay === undefined) return this.#status(keyId);
      await this.#within(underWay, signal);
    }
  }

  /** The registry's answer for the key, shared by the reads that ask while it is under way. */
  #status(keyId: string): Promise<KeyStatus> {
    let asking = this.#asking.get(keyId);
    if (asking === undefined) {
      asking = this.options.keys.status(keyId).finally(() => this.#asking.delete(keyId));
      this.#asking.set(keyId, asking);
    }
    return asking;
  }

  /** Throws the failure of the key's last proof while the upstream that failed it is still failing. */
  #failedRecently(keyId: string): void {
    const failed = this.#failed.get(keyId);
    if (failed === undefined) return;
    const recent = performance.now() - failed.at < this.options.retryAfterMs;
    if (recent && this.options.upstreamFailing()) throw failed.failure;
  }

  /** The proof's end, or the read's timeout when its deadline comes first. */
  #within(underWay: Promise<Ended>, signal: AbortSignal): Promise<Ended> {
    if (signal.aborted) return Promise.reject(this.options.timedOut());
    return new Promise<Ended>((resolve, reject) => {
      const abort = () => reject(this.options.timedOut());
      signal.addEventListener('abort', abort, { once: true });
      underWay.then((ended) => {
        signal.removeEventListener('abort', abort);
        resolve(ended);
      });
    });
  }
}

/** How a proof ended: `failure` when the upstream's failure ended it. */
interface Ended {
  readonly failure?: unknown;
}

async function known(keys: KeyRegistry, keyId: string): Promise<KeyStatus | undefined> {
  const status = await keys.status(keyId);
  return status === 'unknown' ? undefined : status;
}

/** Upstream keys are paths (`/api/...`): this prefix never collides with a resource's lease. */
function proofKey(keyId: string): string {
  return `key-proof ${keyId}`;
}
