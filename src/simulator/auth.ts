/** Bearer-key authentication, with the upstream's two 401 messages. */
import { Messages } from './errors.js';

export type AuthResult =
  | { readonly ok: true; readonly key: string }
  | { readonly ok: false; readonly key: string | null; readonly message: string };

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export class KeyRing {
  private readonly accepted: ReadonlySet<string>;
  private readonly revoked: ReadonlySet<string>;

  constructor(apiKeys: readonly string[], revokedKeys: readonly string[]) {
    this.accepted = new Set(apiKeys);
    this.revoked = new Set(revokedKeys);
  }

  /** The presented key, or null when the header is absent or not a bearer credential. */
  static keyOf(header: string | undefined): string | null {
    return header === undefined ? null : (BEARER.exec(header)?.[1] ?? null);
  }

  check(header: string | undefined): AuthResult {
    const key = KeyRing.keyOf(header);
    if (key === null) return { ok: false, key, message: Messages.keyMissing };
    if (!this.accepted.has(key) || this.revoked.has(key))
      return { ok: false, key, message: Messages.keyInvalid };
    return { ok: true, key };
  }
}
