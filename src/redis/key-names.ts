/**
 * Redis key names made from upstream keys: hashed, so that a long or hostile
 * path cannot make a long key, and every store that keys by a resource (the
 * cache, the flight locks) names it the same way.
 */
import { sha256 } from '../digest.js';

/** `<namespace>:<first 32 hex digits of the key's SHA-256>`. */
export function hashedKey(key: string, namespace: string): string {
  return `${namespace}:${sha256(key).slice(0, 32)}`;
}
