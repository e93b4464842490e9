/**
 * Who an upstream read is made for. The read path, the live feed, the schema
 * and the server all name a read's caller; how one is told from an HTTP
 * request (the Authorization header, the auth mode) stays with the server
 * (server/caller.ts).
 */
import { keyIdOf } from '../coordination/key-registry.js';

/** Who is asking: the key the upstream call is made with, and whether it is the gateway's own. */
export interface Caller {
  readonly apiKey: string;
  /** A hash of the key: what budgets and logs use. */
  readonly keyId: string;
  /** `server`: the gateway's configured key; `client`: a key the client passed through. */
  readonly mode: 'server' | 'client';
  /** Hashed identity of the client (server-key mode), for its share of the day's budget. */
  readonly clientId?: string;
}

export function serverCaller(apiKey: string): Caller {
  return { apiKey, keyId: keyIdOf(apiKey), mode: 'server' };
}
