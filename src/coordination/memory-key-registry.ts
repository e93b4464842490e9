/**
 * Key statuses kept by one process: the registry of a gateway without Redis,
 * and what the Redis registry falls back on while Redis cannot answer, so a
 * key proven during an outage is not proven again by every read. Made-up keys
 * cost a client nothing to send, hence the bounds below.
 */
import { LRUCache } from 'lru-cache';
import {
  DEFAULT_KEY_TTLS,
  type KeyRegistry,
  type KeyRegistryOptions,
  type KeyStatus,
  KNOWN_KEY_TTL_MS,
} from './key-registry.js';

const MAX_KEYS = 10_000;

/**
 * Accepted and rejected keys are kept apart, each bounded: a flood of
 * made-up keys fills only the rejected list and can never evict the
 * acceptance of a real one.
 */
export class MemoryKeyRegistry implements KeyRegistry {
  readonly #accepted = keyList();
  readonly #rejected = keyList();
  readonly #known = keyList(KNOWN_KEY_TTL_MS);

  constructor(private readonly ttls: KeyRegistryOptions = DEFAULT_KEY_TTLS) {}

  async status(keyId: string): Promise<KeyStatus> {
    return this.statusNow(keyId);
  }

  statusNow(keyId: string): KeyStatus {
    if (this.#rejected.has(keyId)) return 'rejected';
    return this.#accepted.has(keyId) ? 'accepted' : 'unknown';
  }

  async wasAccepted(keyId: string): Promise<boolean> {
    return this.#known.has(keyId);
  }

  async markAccepted(keyId: string): Promise<void> {
    this.#rejected.delete(keyId);
    this.#known.set(keyId, true);
    // Not renewed on each success: the TTL bounds how long a revoked key keeps reading the cache.
    if (!this.#accepted.has(keyId))
      this.#accepted.set(keyId, true, { ttl: this.ttls.acceptedTtlMs });
  }

  async markRejected(keyId: string): Promise<void> {
    this.#accepted.delete(keyId);
    this.#known.delete(keyId);
    this.#rejected.set(keyId, true, { ttl: this.ttls.rejectedTtlMs });
  }
}

/**
 * A bounded list of key ids. Bounded by count through maxSize, not max: with max, lru-cache
 * makes every slot's tables when the list is made (and its TTL tables at the first entry with a
 * TTL, inside the request that brings it), for lists that mostly stay nearly empty.
 */
function keyList(ttl?: number): LRUCache<string, true> {
  return new LRUCache<string, true>({
    maxSize: MAX_KEYS,
    sizeCalculation: () => 1,
    ...(ttl === undefined ? {} : { ttl }),
  });
}
