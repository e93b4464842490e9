/**
 * Key statuses shared by every replica: `key:<key hash>` holds `accepted`
 * or `rejected`, expiring with its TTL, and `key-known:<key hash>` marks a
 * key accepted within KNOWN_KEY_TTL_MS. While Redis cannot answer, this
 * process's own memory stands in; what it learns then stays local.
 */

import type { RedisClient } from '../redis/connection.js';
import {
  type KeyRegistry,
  type KeyRegistryOptions,
  type KeyStatus,
  KNOWN_KEY_TTL_MS,
} from './key-registry.js';
import { MemoryKeyRegistry } from './memory-key-registry.js';

export class RedisKeyRegistry implements KeyRegistry {
  readonly #local: MemoryKeyRegistry;

  constructor(
    private readonly redis: RedisClient,
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

  async wasAccepted(keyId: string): Promise<boolean> {
    try {
      return (await this.redis.exists(`key-known:${keyId}`)) === 1;
    } catch {
      return this.#local.wasAccepted(keyId);
    }
  }

  async markAccepted(keyId: string): Promise<void> {
    await this.#local.markAccepted(keyId);
    await Promise.all([
      // NX: a key's acceptance is not prolonged by each success, so the TTL bounds how long a revoked key reads the cache.
      this.redis
        .set(`key:${keyId}`, 'accepted', 'PX', this.ttls.acceptedTtlMs, 'NX')
        .catch(() => undefined),
      this.redis.set(`key-known:${keyId}`, '1', 'PX', KNOWN_KEY_TTL_MS).catch(() => undefined),
    ]);
  }

  async markRejected(keyId: string): Promise<void> {
    await this.#local.markRejected(keyId);
    await Promise.all([
      this.redis
        .set(`key:${keyId}`, 'rejected', 'PX', this.ttls.rejectedTtlMs)
        .catch(() => undefined),
      this.redis.del(`key-known:${keyId}`).catch(() => undefined),
    ]);
  }
}
