/**
 * What the gateway knows about client API keys in pass-through mode.
 *
 * Cached answers are shared between keys (the data is public and identical
 * for every key), so a key may read the cache only once the upstream has
 * accepted it; a key the upstream rejected is refused without another call.
 * Keys are remembered by a hash, never in clear. One seam, two stores: this
 * process's memory, or Redis shared by every replica (redis-key-registry.ts).
 */
import { LRUCache } from 'lru-cache';
import { sha256 } from '../digest.js';

export type KeyStatus = 'accepted' | 'rejected' | 'unknown';

export interface KeyRegistryOptions {
  /**
   * How long an accepted key may read cached data before one real call
   * proves it again: revocations happen outside the gateway's view.
   */
  readonly acceptedTtlMs: number;
  readonly rejectedTtlMs: number;
}

/**
 * How long a key the upstream accepted is remembered as a real one after its acceptance lapses:
 * proving it again costs a call, but it is no new key for PASS_THROUGH_NEW_KEYS_PER_MINUTE.
 */
export const KNOWN_KEY_TTL_MS = 24 * 60 * 60 * 1000;

export const DEFAULT_KEY_TTLS: KeyRegistryOptions = {
  acceptedTtlMs: 5 * 60 * 1000,
  rejectedTtlMs: 10 * 60 * 1000,
};

export interface KeyRegistry {
  status(keyId: string): Promise<KeyStatus>;
  /** Whether the upstream accepted the key within KNOWN_KEY_TTL_MS and has not rejected it since. */
  wasAccepted(keyId: string): Promise<boolean>;
  markAccepted(keyId: string): Promise<void>;
  markRejected(keyId: string): Promise<void>;
}

export function keyIdOf(apiKey: string): string {
  return sha256(apiKey).slice(0, 24);
}

const MAX_KEYS = 10_000;

/**
 * Accepted and rejected keys are kept apart, each bounded: a flood of
 * made-up keys fills only the rejected list and can never evict the
 * acceptance of a real one.
 */
export class MemoryKeyRegistry implements KeyRegistry {
  readonly #accepted = new LRUCache<string, true>({ max: MAX_KEYS });
  readonly #rejected = new LRUCache<string, true>({ max: MAX_KEYS });
  readonly #known = new LRUCache<string, true>({ max: MAX_KEYS, ttl: KNOWN_KEY_TTL_MS });

  constructor(private readonly ttls: KeyRegistryOptions = DEFAULT_KEY_TTLS) {}

  async status(keyId: string): Promise<KeyStatus> {
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
