/**
 * What the gateway knows about client API keys in pass-through mode.
 *
 * Cached answers are shared between keys (the data is public and identical
 * for every key), so a key may read the cache only once the upstream has
 * accepted it; a key the upstream rejected is refused without another call.
 * Keys are remembered by a hash, never in clear. One seam, two stores side by
 * side: this process's memory (memory-key-registry.ts), or Redis shared by
 * every replica (redis-key-registry.ts).
 */
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
  /** The same as `status` when this process alone can tell it; undefined when the store must be asked. */
  statusNow?(keyId: string): KeyStatus | undefined;
  /** Whether the upstream accepted the key within KNOWN_KEY_TTL_MS and has not rejected it since. */
  wasAccepted(keyId: string): Promise<boolean>;
  markAccepted(keyId: string): Promise<void>;
  markRejected(keyId: string): Promise<void>;
}

export function keyIdOf(apiKey: string): string {
  return sha256(apiKey).slice(0, 24);
}
