/**
 * Key statuses shared by every replica: `key:<key hash>` holds `accepted`
 * or `rejected`, expiring with its TTL, and `key-known:<key hash>` marks a
 * key accepted within KNOWN_KEY_TTL_MS. While Redis cannot answer, this
 * process's own memory stands in; what it learns then stays local.
 *
 * A status Redis gave, or an acceptance this replica wrote, is kept here for
 * STATUS_KEPT_MS at most, and never past the Redis entry's own expiry, so
 * that `statusNow` can answer: a
 * response-cache hit and a request's held reads then need no round trip. A
 * key another replica finds rejected is refused here that much later at most;
 * an accepted key reads the cache for its whole acceptance TTL anyway, since
 * revocations happen outside the gateway's view.
 */
import { performance } from 'node:perf_hooks';
import { LRUCache } from 'lru-cache';

import type { RedisClient } from '../redis/connection.js';
import {
  type KeyRegistry,
  type KeyRegistryOptions,
  type KeyStatus,
  KNOWN_KEY_TTL_MS,
} from './key-registry.js';
import { MemoryKeyRegistry } from './memory-key-registry.js';

const STATUS_KEPT_MS = 1_000;
/** Statuses kept at once: far more keys than clients ask with in a second. */
const STATUSES_KEPT = 10_000;

export class RedisKeyRegistry implements KeyRegistry {
  readonly #local: MemoryKeyRegistry;
  /** What Redis said of each key lately (lru-cache's TTLs run on performance.now()). */
  readonly #told = new LRUCache<string, 'accepted' | 'rejected'>({ max: STATUSES_KEPT });

  constructor(
    private readonly redis: RedisClient,
    private readonly ttls: KeyRegistryOptions,
  ) {
    this.#local = new MemoryKeyRegistry(ttls);
  }

  async status(keyId: string): Promise<KeyStatus> {
    const told = this.#told.get(keyId);
    if (told !== undefined) return told;
    try {
      const key = `key:${keyId}`;
      const asked = performance.now();
      const [read, expiry] = (await this.redis.pipeline().get(key).pttl(key).exec()) ?? [];
      if (read?.[0] || expiry?.[0]) throw read?.[0] ?? expiry?.[0];
      const value = read?.[1];
      if (value !== 'accepted' && value !== 'rejected') return 'unknown';
      this.#keep(keyId, value, Number(expiry?.[1]), asked);
      return value;
    } catch {
      return this.#local.status(keyId);
    }
  }

  statusNow(keyId: string): KeyStatus | undefined {
    return this.#told.get(keyId);
  }

  async wasAccepted(keyId: string): Promise<boolean> {
    try {
      return (await this.redis.exists(`key-known:${keyId}`)) === 1;
    } catch {
      return this.#local.wasAccepted(keyId);
    }
  }

  async markAccepted(keyId: string): Promise<void> {
    this.#told.delete(keyId);
    await this.#local.markAccepted(keyId);
    const asked = performance.now();
    const [written] = await Promise.all([
      // NX: a key's acceptance is not prolonged by each success, so the TTL bounds how long a revoked key reads the cache.
      this.redis
        .set(`key:${keyId}`, 'accepted', 'PX', this.ttls.acceptedTtlMs, 'NX')
        .catch(() => null),
      this.redis.set(`key-known:${keyId}`, '1', 'PX', KNOWN_KEY_TTL_MS).catch(() => undefined),
    ]);
    // Written by this call, the entry's life is known: the reads that waited for this proof take
    // it from here. An entry that was there already may end at any time, and is asked for again.
    if (written === 'OK') this.#keep(keyId, 'accepted', this.ttls.acceptedTtlMs, asked);
  }

  /**
   * Keeps what Redis holds of the key for a second at most, and never past `lifeMs` counted from
   * `asked` (a millisecond short: lru-cache looks at its clock at that resolution).
   */
  #keep(keyId: string, value: 'accepted' | 'rejected', lifeMs: number, asked: number): void {
    const keptMs = Math.floor(Math.min(STATUS_KEPT_MS, lifeMs) - (performance.now() - asked)) - 1;
    if (keptMs >= 1) this.#told.set(keyId, value, { ttl: keptMs });
  }

  async markRejected(keyId: string): Promise<void> {
    this.#told.set(keyId, 'rejected', { ttl: STATUS_KEPT_MS });
    await this.#local.markRejected(keyId);
    await Promise.all([
      this.redis
        .set(`key:${keyId}`, 'rejected', 'PX', this.ttls.rejectedTtlMs)
        .catch(() => undefined),
      this.redis.del(`key-known:${keyId}`).catch(() => undefined),
    ]);
  }
}
