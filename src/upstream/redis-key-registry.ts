/**
 * Key statuses shared by every replica: `key:<key hash>` holds `accepted`
 * or `rejected`, expiring with its TTL. While Redis cannot answer, this
 * process's own memory stands in; what it learns then stays local.
 */
import type { Redis } from 'ioredis';
import {
  type KeyRegistry,
  type KeyRegistryOptions,
  type KeyStatus,
  MemoryKeyRegistry,
} from './key-registry.js';

export class RedisKeyRegistry implements KeyRegistry {
  readonly #local: MemoryKeyRegistry;

  constructor(
    private readonly redis: Redis,
    private readonly ttls: KeyRegistryOptions,
  ) {
    this.#local = new MemoryKeyRegistry(ttls);
  }

  async status(keyId: string): Promise<KeyStatus> {
    try {
      const value = await this.redis.get(`key:${keyId}`);
      return value === 'accepted' || value === 'rejected' ? value : 'unknown';
    } catch {
      return this.#local.status(keyId);
    }
  }

  async markAccepted(keyId: string): Promise<void> {
    await this.#local.markAccepted(keyId);
    // NX: a key's acceptance is not prolonged by each success, so the TTL bounds how long a revoked key reads the cache.
    await this.redis
      .set(`key:${keyId}`, 'accepted', 'PX', this.ttls.acceptedTtlMs, 'NX')
      .catch(() => undefined);
  }

  async markRejected(keyId: string): Promise<void> {
    await this.#local.markRejected(keyId);
    await this.redis
      .set(`key:${keyId}`, 'rejected', 'PX', this.ttls.rejectedTtlMs)
      .catch(() => undefined);
  }
}
