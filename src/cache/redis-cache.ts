/**
 * The shared second level: upstream answers in Redis, one key per resource
 * (hashed, so a long or hostile path cannot make a long key), each expiring
 * when its stale-if-error allowance ends. Every replica reads what any
 * replica stored, freshness and staleness included.
 *
 * Which clock decides: Redis's. Replicas' calendars may be seconds (or, in a
 * suspended VM, days) apart, so an entry never travels with the writer's
 * instants. It travels with durations measured by the writer at the write
 * (how old it is, how long it stays fresh, how long it is kept), stamped by
 * Redis with Redis's time; a read gets Redis's time too, so how long ago the
 * entry was written is Redis's difference, whatever either replica's
 * calendar says. The reader turns those durations into instants of its own
 * calendar: every replica sees an entry turn stale at the same moment.
 */
import type { Cluster } from 'ioredis';
import { batched } from '../redis/batched.js';
import type { RedisClient } from '../redis/connection.js';
import { hashedKey } from '../redis/key-names.js';
import { isCluster, perSlot } from '../redis/per-slot.js';
import { queueScript, redisScript, type ScriptCall } from '../redis/script.js';
import type { CacheEntry, ResponseCache } from './cache.js';

/**
 * Redis's clock, in ms: the one clock every replica asks, so that none has to
 * agree with another's calendar. Both scripts read it with TIME (whose answer
 * Redis computed, never the gateway).
 */
const REDIS_NOW_MS = `local time = redis.call('TIME')
local nowMs = string.format('%.0f', tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000))`;

/** KEYS: the entry's key. ARGV: the entry, its TTL (ms). Stored as `<Redis's ms> <entry>`. */
const WRITE = `${REDIS_NOW_MS}
redis.call('SET', KEYS[1], nowMs .. ' ' .. ARGV[1], 'PX', ARGV[2])
return 0`;

/** KEYS: any number of entries. Answers Redis's ms, then every value (nil when missing). */
const READ = `${REDIS_NOW_MS}
return {nowMs, redis.call('MGET', unpack(KEYS))}`;

const READ_SCRIPT = 'cacheRead';
/** READ's answer: Redis's ms, then the values. */
type ReadAnswer = [string, (string | null)[]];

/**
 * READ on a cluster: once per slot (one MGET may not span slots), each node's slots in one
 * pipeline. An entry whose slot failed to answer fails alone (its reader treats it as a miss).
 */
async function readPerSlot(
  cluster: Cluster,
  redisKeys: readonly string[],
): Promise<(readonly [string | null, number] | Error)[]> {
  const found: (readonly [string | null, number] | Error)[] = [];
  const answers = await perSlot(cluster, redisKeys, (pipeline, keys) =>
    queueScript(pipeline, READ_SCRIPT, [keys.length, ...keys]),
  );
  for (const { indices, answer, error } of answers) {
    if (error !== undefined) {
      for (const index of indices) found[index] = error;
      continue;
    }
    const [redisNow, values] = answer as ReadAnswer;
    indices.forEach((index, at) => {
      found[index] = [values[at] ?? null, Number(redisNow)];
    });
  }
  return found;
}

/** An entry as it travels: the writer's instants turned into durations measured at the write. */
interface StoredEntry {
  readonly outcome: CacheEntry['outcome'];
  readonly value: unknown;
  readonly bytes: number;
  readonly generation?: number;
  /** How old the entry was when written. */
  readonly ageMs: number;
  /** How long after the write it stays fresh (≤ 0: already stale). */
  readonly freshMs: number;
  /** How long after the write it may stand in for a failed read (the key's TTL). */
  readonly keptMs: number;
}

export function redisCacheKey(key: string, namespace = 'cache'): string {
  return hashedKey(key, namespace);
}

export interface RedisCacheOptions {
  /** Told about every failed command, so the owner can log an outage once rather than per read. */
  readonly onError?: (error: unknown) => void;
  /** The first part of every key (`cache`): stores of different kinds stay apart and measurable. */
  readonly namespace?: string;
  /** Longest time Redis keeps an entry, however long it stays fresh or usable; absent: no bound. */
  readonly maxRetentionMs?: number;
  /** This process's calendar (epoch ms), in which entries' instants are read and written: `Date.now`. */
  readonly now?: () => number;
}

export class RedisCache implements ResponseCache {
  readonly #onError: (error: unknown) => void;
  readonly #namespace: string;
  readonly #maxRetentionMs: number;
  readonly #now: () => number;
  /** The entries read in one turn of the event loop: one MGET (a cold fan-out reads twenty at once), one per slot on a cluster. */
  readonly #read: (redisKey: string) => Promise<readonly [string | null, number]>;
  readonly #write: ScriptCall;

  constructor(
    private readonly redis: RedisClient,
    { onError, namespace, maxRetentionMs, now }: RedisCacheOptions = {},
  ) {
    this.#now = now ?? (() => Date.now());
    this.#onError = onError ?? (() => undefined);
    this.#namespace = namespace ?? 'cache';
    this.#maxRetentionMs = maxRetentionMs ?? Number.POSITIVE_INFINITY;
    const read = redisScript(redis, READ_SCRIPT, undefined, READ);
    this.#write = redisScript(redis, 'cacheWrite', 1, WRITE);
    this.#read = batched(async (redisKeys) => {
      if (isCluster(redis)) return readPerSlot(redis, redisKeys);
      const [redisNow, values] = (await read(redisKeys.length, ...redisKeys)) as ReadAnswer;
      return values.map((value) => [value, Number(redisNow)] as const);
    });
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    let text: string | null;
    let redisNow: number;
    try {
      [text, redisNow] = await this.#read(redisCacheKey(key, this.#namespace));
    } catch (error) {
      this.#onError(error);
      return undefined;
    }
    if (text === null) return undefined;
    const stamped = parseStamped(text);
    if (stamped === undefined) return undefined;
    const sinceWrite = Math.max(0, redisNow - stamped.writtenAt);
    if (sinceWrite >= stamped.entry.keptMs) return undefined;
    return onThisClock(stamped.entry, sinceWrite, this.#now());
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    const now = this.#now();
    const keptMs = Math.min(entry.staleUntil - now, this.#maxRetentionMs);
    if (keptMs <= 0) return;
    const stored: StoredEntry = {
      outcome: entry.outcome,
      value: entry.value,
      bytes: entry.bytes,
      ...(entry.generation === undefined ? {} : { generation: entry.generation }),
      ageMs: Math.max(0, now - entry.storedAt),
      freshMs: entry.freshUntil - now,
      keptMs,
    };
    try {
      await this.#write(
        redisCacheKey(key, this.#namespace),
        JSON.stringify(stored),
        Math.ceil(keptMs),
      );
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

/** `stored`, written `sinceWrite` ms ago by Redis's clock, as instants of this process's calendar at `now`. */
function onThisClock(stored: StoredEntry, sinceWrite: number, now: number): CacheEntry {
  return {
    outcome: stored.outcome,
    value: stored.value,
    bytes: stored.bytes,
    ...(stored.generation === undefined ? {} : { generation: stored.generation }),
    storedAt: now - sinceWrite - stored.ageMs,
    freshUntil: now - sinceWrite + stored.freshMs,
    staleUntil: now - sinceWrite + stored.keptMs,
  };
}

/** `<Redis's ms at the write> <entry>`; anything else (another version's format) is a miss. */
function parseStamped(text: string): { writtenAt: number; entry: StoredEntry } | undefined {
  const space = text.indexOf(' ');
  const writtenAt = Number(text.slice(0, space));
  if (space <= 0 || !Number.isSafeInteger(writtenAt)) return undefined;
  const entry = parseEntry(text.slice(space + 1));
  return entry === undefined ? undefined : { writtenAt, entry };
}

/** What another replica (or an older version) wrote, checked: a malformed entry is a miss. */
function parseEntry(text: string): StoredEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as Partial<StoredEntry>;
  const numbers = [entry.bytes, entry.ageMs, entry.freshMs, entry.keptMs];
  const generationOk = entry.generation === undefined || typeof entry.generation === 'number';
  if (
    (entry.outcome !== 'value' && entry.outcome !== 'not-found') ||
    !numbers.every((n) => typeof n === 'number' && Number.isFinite(n)) ||
    !generationOk
  ) {
    return undefined;
  }
  return entry as StoredEntry;
}
