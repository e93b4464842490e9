/**
 * What the gateway knows about client API keys in pass-through mode.
 *
 * Cached answers are shared between keys (the data is public and identical
 * for every key), so a key may read the cache only once the upstream has
 * accepted it; a key the upstream rejected is refused without another call.
 * Keys are remembered by a hash, never in clear. One seam, two stores: this
 * process's memory, or Redis shared by every replica (redis-key-registry.ts).
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export type KeyStatus = 'accepted' | 'rejected' | 'unknown';

export interface KeyRegistryOptions {
  /**
   * How long an accepted key may read cached data before one real call
   * proves it again: revocations happen outside the gateway's view.
   */
  readonly acceptedTtlMs: number;
  readonly rejectedTtlMs: number;
}

export const DEFAULT_KEY_TTLS: KeyRegistryOptions = { acceptedTtlMs: 5 * 60 * 1000, rejectedTtlMs: 10 * 60 * 1000 };

export interface KeyRegistry {
  status(keyId: string): Promise<KeyStatus>;
  markAccepted(keyId: string): Promise<void>;
  markRejected(keyId: string): Promise<void>;
}

export function keyIdOf(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 24);
}

const MAX_KEYS = 10_000;

export class MemoryKeyRegistry implements KeyRegistry {
  readonly #status = new LRUCache<string, Exclude<KeyStatus, 'unknown'>>({ max: MAX_KEYS });

  constructor(private readonly ttls: KeyRegistryOptions = DEFAULT_KEY_TTLS) {}

  async status(keyId: string): Promise<KeyStatus> {
    return this.#status.get(keyId) ?? 'unknown';
  }

  async markAccepted(keyId: string): Promise<void> {
    // Not renewed on each success: the TTL bounds how long a revoked key keeps reading the cache.
    if (this.#status.get(keyId) !== 'accepted') this.#status.set(keyId, 'accepted', { ttl: this.ttls.acceptedTtlMs });
  }

  async markRejected(keyId: string): Promise<void> {
    this.#status.set(keyId, 'rejected', { ttl: this.ttls.rejectedTtlMs });
  }
}
