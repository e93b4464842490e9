/**
 * What a worker and the primary of one machine say to each other about the
 * stores the primary keeps for them (WORKERS > 1 without Redis): calls
 * answered by replies and one-way notes, each sent in batches, and the live
 * feed's announcements relayed to every worker. Messages travel as JSON over
 * node:cluster's channel, the same form the Redis stores write, so whatever
 * a store keeps in Redis it can keep here.
 *
 * Why batches: a page's reads make their calls together (a lease for each of
 * twenty records, then a reservation for each), and each message costs both
 * processes a write, a parse and an event; one message for the lot costs
 * them once.
 */

export const INVOCATIONS = 'gateway:store-invocations';
export const REPLIES = 'gateway:store-replies';
export const LIVE = 'gateway:live';
export const HELD = 'gateway:store-held';

/** The stores the primary keeps for its workers, by the name a message gives. */
export type StoreName =
  | 'cache'
  | 'answers'
  | 'budget'
  | 'keys'
  | 'leases'
  | 'generations'
  | 'popularity'
  | 'pollLease';

/** One method of one store, with its arguments. */
export interface Invocation {
  readonly store: StoreName;
  readonly method: string;
  readonly args: readonly unknown[];
}

/** An invocation whose answer the worker waits for, under its `id`; a note has none. */
export interface Call extends Invocation {
  readonly id: number;
}

/** A worker's calls and notes, in the order it made them. */
export interface Invocations {
  readonly type: typeof INVOCATIONS;
  readonly invocations: readonly (Invocation | Call)[];
}

/** The answer to one call. */
export interface Reply {
  readonly id: number;
  readonly value?: unknown;
  readonly error?: SentError;
}

/** The answers the primary had for one worker at once. */
export interface Replies {
  readonly type: typeof REPLIES;
  readonly replies: readonly Reply[];
}

export interface LiveMessage {
  readonly type: typeof LIVE;
  readonly topic: string;
  readonly data: unknown;
}

/** An entry the primary now holds under `key`, told to every worker (store-host.ts `announced`). */
export interface HeldMessage {
  readonly type: typeof HELD;
  readonly store: StoreName;
  readonly key: string;
}

/**
 * A store's refusal as it travels: its class name, message and own fields (an UpstreamError's
 * code and details, a PlanRefusal's count). The worker's side of each store gives it back its
 * class (RemoteError below carries it until then).
 */
export interface SentError {
  readonly name: string;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

export function sentError(error: unknown): SentError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(error))
    if (field !== 'name' && field !== 'stack' && field !== 'cause') fields[field] = value;
  return { name: error.name, message: error.message, fields };
}

/** A refusal the primary's store sent, as the worker's call rejects with it. */
export class RemoteError extends Error {
  override readonly name = 'RemoteError';

  constructor(readonly sent: SentError) {
    super(sent.message);
  }
}

export function isMessage<T extends { readonly type: string }>(
  message: unknown,
  type: T['type'],
): message is T {
  return (
    typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type
  );
}
