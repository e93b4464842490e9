/**
 * The second level shared by the workers of one machine without Redis: the
 * primary keeps it (gateway/machine-stores.ts) and each worker asks it over
 * node:cluster's channel, behind its own first level (two-level-cache.ts) as
 * it would ask Redis. Every process of the machine reads one clock, so an
 * entry travels with its instants. Like the Redis level it never rejects: a
 * write goes without waiting, and a read the primary cannot answer is a miss.
 *
 * A level whose keys are announced asks the primary only for a key it knows
 * the primary stored: the keys held when this worker started, and each key
 * stored since. Most lookups of either level are of keys nobody stored (an
 * operation nobody asked before, a record a cold page is about to fetch), and
 * each would otherwise cost a round trip on the request's path. A key the
 * primary evicted costs one round trip, then is forgotten.
 *
 * Until the primary's list of its keys arrives, every key is asked for. What
 * happens when more keys were announced than the worker remembers depends on
 * what a wrong "not held" costs: for an answer, an execution, so the oldest
 * are forgotten; for a record, an upstream call, so the worker asks for every
 * key again, as a level without announcements does.
 */
import { LRUCache } from 'lru-cache';
import type { PrimaryLink } from '../machine/primary-link.js';
import type { CacheEntry, ResponseCache } from './cache.js';

export interface MachineCacheOptions {
  /** Whether the primary tells every worker each key it stores here (store-host.ts `announced`). */
  readonly announced?: {
    readonly maxKeys: number;
    /** Past `maxKeys`: forget the oldest, or ask the primary for every key from then on. */
    readonly beyond: 'forget-oldest' | 'ask-for-every-key';
  };
}

export class MachineCache implements ResponseCache {
  /** Keys the primary stored, when they are announced; undefined: every key is asked for. */
  readonly #held: LRUCache<string, true> | undefined;
  /** Whether a key missing from #held is one the primary does not hold. */
  #complete = false;

  constructor(
    private readonly primary: PrimaryLink,
    private readonly store: 'cache' | 'answers',
    { announced }: MachineCacheOptions = {},
  ) {
    if (announced === undefined) return;
    const askForEveryKey = announced.beyond === 'ask-for-every-key';
    // Bounded by count through maxSize, not max: with max, lru-cache allocates every slot at start.
    const held = new LRUCache<string, true>({
      maxSize: announced.maxKeys,
      sizeCalculation: () => 1,
      ...(askForEveryKey
        ? {
            dispose: (_value, _key, reason) => {
              if (reason === 'evict') this.#complete = false;
            },
          }
        : {}),
    });
    this.#held = held;
    primary.onHeld((from, key) => {
      if (from === store) held.set(key, true);
    });
    primary.call<string[]>(store, 'keys').then(
      // Oldest first, so that the most recently used end up most recent here too.
      (keys) => {
        // Complete from now on, unless adding the list forgets a key (the disposal above).
        this.#complete = true;
        for (const key of keys.reverse()) if (!held.has(key)) held.set(key, true);
      },
      () => undefined,
    );
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    if (this.#complete && !this.#held!.has(key)) return undefined;
    try {
      const entry =
        (await this.primary.call<CacheEntry | null>(this.store, 'get', key)) ?? undefined;
      if (entry === undefined) this.#held?.delete(key);
      return entry;
    } catch {
      return undefined;
    }
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    this.#held?.set(key, true);
    this.primary.note(this.store, 'set', key, entry);
  }

  async delete(key: string): Promise<void> {
    this.#held?.delete(key);
    this.primary.note(this.store, 'delete', key);
  }
}
