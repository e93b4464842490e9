/**
 * The shared second level: upstream answers in Redis, one key per resource
 * (hashed, so a long or hostile path cannot make a long key), each expiring
 * when its stale-if-error allowance ends. Every replica reads what any
 * replica stored, freshness and staleness included.
 */
import type { Redis } from 'ioredis';
import { sha256 } from '../digest.js';
import { batched } from '../redis/batched.js';
import { type CacheEntry, type ResponseCache, retentionMs } from './cache.js';

export function redisCacheKey(key: string, namespace = 'cache'): string {
  return `${namespace}:${sha256(key).slice(0, 32)}`;
}

export interface RedisCacheOptions {
  /** Told about every failed command, so the owner can log an outage once rather than per read. */
  readonly onError?: (error: unknown) => void;
  /** The first part of every key (`cache`): stores of different kinds stay apart and measurable. */
  readonly namespace?: string;
  /** Longest time Redis keeps an entry, however long it stays fresh or usable; absent: no bound. */
  readonly maxRetentionMs?: number;
}

export class RedisCache implements ResponseCache {
  readonly #onError: (error: unknown) => void;
  readonly #namespace: string;
  readonly #maxRetentionMs: number;
  /** The entries read in one turn of the event loop: one MGET (a cold fan-out reads twenty at once). */
  readonly #read: (redisKey: string) => Promise<string | null>;

  constructor(
    private readonly redis: Redis,
    { onError, namespace, maxRetentionMs }: RedisCacheOptions = {},
  ) {
    this.#onError = onError ?? (() => undefined);
    this.#namespace = namespace ?? 'cache';
    this.#maxRetentionMs = maxRetentionMs ?? Number.POSITIVE_INFINITY;
    this.#read = batched((redisKeys) => redis.mget(...redisKeys));
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    let text: string | null;
    try {
      text = await this.#read(redisCacheKey(key, this.#namespace));
    } catch (error) {
      this.#onError(error);
      return undefined;
    }
    if (text === null) return undefined;
    const entry = parseEntry(text);
    return entry !== undefined && entry.staleUntil > Date.now() ? entry : undefined;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    const ttl = Math.min(retentionMs(entry), this.#maxRetentionMs);
    try {
      await this.redis.set(redisCacheKey(key, this.#namespace), JSON.stringify(entry), 'PX', ttl);
    } catch (error) {
      this.#onError(error);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.redis.del(redisCacheKey(key, this.#namespace));
    } catch (error) {
      this.#onError(error);
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
