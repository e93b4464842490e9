/**
 * What the gateway knows about client API keys in pass-through mode.
 *
 * Cached answers are shared between keys (the data is public and identical
 * for every key), so a key may read the cache only once the upstream has
 * accepted it; a key the upstream rejected is refused without another call.
 * Keys are remembered by a hash, never in clear.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

const MAX_KEYS = 10_000;
/** Revocations happen outside our view; re-check accepted keys this often. */
const ACCEPTED_TTL_MS = 60 * 60 * 1000;
const REJECTED_TTL_MS = 10 * 60 * 1000;

export type KeyStatus = 'accepted' | 'rejected' | 'unknown';

export function keyIdOf(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 24);
}

export class KeyRegistry {
  readonly #status = new LRUCache<string, Exclude<KeyStatus, 'unknown'>>({ max: MAX_KEYS });

  status(keyId: string): KeyStatus {
    return this.#status.get(keyId) ?? 'unknown';
  }

  markAccepted(keyId: string): void {
    if (this.#status.get(keyId) !== 'accepted') this.#status.set(keyId, 'accepted', { ttl: ACCEPTED_TTL_MS });
  }

  markRejected(keyId: string): void {
    this.#status.set(keyId, 'rejected', { ttl: REJECTED_TTL_MS });
  }
}
