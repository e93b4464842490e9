/**
 * Key statuses shared by the workers of one machine without Redis: the
 * primary keeps the one memory registry, so a key one worker proved is
 * accepted by all, and one the upstream refused is refused by all.
 *
 * As with Redis, a status the primary gave is kept here for a second, so
 * that `statusNow` can answer a response-cache hit and a request's held
 * reads without a round trip: another worker's rejection, or an acceptance
 * lapsing, is seen here that much later at most.
 */
import { LRUCache } from 'lru-cache';
import type { PrimaryLink } from '../machine/primary-link.js';
import type { KeyRegistry, KeyStatus } from './key-registry.js';

const STATUS_KEPT_MS = 1_000;
/** Statuses kept at once: far more keys than clients ask with in a second. */
const STATUSES_KEPT = 10_000;

export class MachineKeyRegistry implements KeyRegistry {
  /** What the primary said of each key lately (lru-cache's TTLs run on performance.now()). */
  readonly #told = new LRUCache<string, 'accepted' | 'rejected'>({
    max: STATUSES_KEPT,
    ttl: STATUS_KEPT_MS,
  });

  constructor(private readonly primary: PrimaryLink) {}

  async status(keyId: string): Promise<KeyStatus> {
    const told = this.#told.get(keyId);
    if (told !== undefined) return told;
    const status = await this.primary.call<KeyStatus>('keys', 'status', keyId);
    if (status !== 'unknown') this.#told.set(keyId, status);
    return status;
  }

  statusNow(keyId: string): KeyStatus | undefined {
    return this.#told.get(keyId);
  }

  wasAccepted(keyId: string): Promise<boolean> {
    return this.primary.call<boolean>('keys', 'wasAccepted', keyId);
  }

  /**
   * A note: the primary's registry accepts the key whatever it held before
   * (memory-key-registry.ts), so this worker knows its answer without asking.
   */
  async markAccepted(keyId: string): Promise<void> {
    this.#told.set(keyId, 'accepted');
    this.primary.note('keys', 'markAccepted', keyId);
  }

  async markRejected(keyId: string): Promise<void> {
    this.#told.set(keyId, 'rejected');
    this.primary.note('keys', 'markRejected', keyId);
  }
}
