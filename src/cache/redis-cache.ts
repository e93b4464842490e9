/**
 * The shared second level: upstream answers in Redis, one key per resource
 * (hashed, so a long or hostile path cannot make a long key), each expiring
 * when its stale-if-error allowance ends. Every replica reads what any
 * replica stored, freshness and staleness included.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { type CacheEntry, type ResponseCache, retentionMs } from './cache.js';

export function redisCacheKey(key: string): string {
  return `cache:${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

export class RedisCache implements ResponseCache {
  constructor(
    private readonly redis: Redis,
    /** Told about every failed command, so the owner can log an outage once rather than per read. */
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  async get(key: string): Promise<CacheEntry | undefined> {
    let text: string | null;
    try {
      text = await this.redis.get(redisCacheKey(key));
    } catch (error) {
      this.onError(error);
      return undefined;
    }
    if (text === null) return undefined;
    const entry = parseEntry(text);
    return entry !== undefined && entry.staleUntil > Date.now() ? entry : undefined;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    try {
      await this.redis.set(redisCacheKey(key), JSON.stringify(entry), 'PX', retentionMs(entry));
    } catch (error) {
      this.onError(error);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.redis.del(redisCacheKey(key));
    } catch (error) {
      this.onError(error);
    }
  }
}

/** What another replica (or an older version) wrote, checked: a malformed entry is a miss. */
function parseEntry(text: string): CacheEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as Partial<CacheEntry>;
  const numbers = [entry.bytes, entry.storedAt, entry.freshUntil, entry.staleUntil];
  const generationOk = entry.generation === undefined || typeof entry.generation === 'number';
  if (
    (entry.outcome !== 'value' && entry.outcome !== 'not-found') ||
    !numbers.every((n) => typeof n === 'number') ||
    !generationOk
  ) {
    return undefined;
  }
  return entry as CacheEntry;
}
