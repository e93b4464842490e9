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
  // Each list's TTL given at the start: lru-cache sizes its TTL tables then, not inside the
  // request that brings the first key.
  readonly #accepted: LRUCache<string, true>;
  readonly #rejected: LRUCache<string, true>;
  readonly #known = new LRUCache<string, true>({ max: MAX_KEYS, ttl: KNOWN_KEY_TTL_MS });

  constructor(ttls: KeyRegistryOptions = DEFAULT_KEY_TTLS) {
    this.#accepted = new LRUCache({ max: MAX_KEYS, ttl: ttls.acceptedTtlMs });
    this.#rejected = new LRUCache({ max: MAX_KEYS, ttl: ttls.rejectedTtlMs });
  }

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
    if (!this.#accepted.has(keyId)) this.#accepted.set(keyId, true);
  }

  async markRejected(keyId: string): Promise<void> {
    this.#accepted.delete(keyId);
    this.#known.delete(keyId);
    this.#rejected.set(keyId, true);
  }
}
