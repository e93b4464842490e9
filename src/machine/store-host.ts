/**
 * The primary's side of the machine's stores: it answers each worker's
 * calls from the stores it keeps (gateway/machine-stores.ts), applies their notes,
 * and relays every live announcement to all workers. Workers are the
 * primary's own children running this same code, so a message names a store
 * and one of its methods directly.
 */
import type { Serializable } from 'node:child_process';
import cluster from 'node:cluster';
import * as wire from './messages.js';

/**
 * How the primary hears its workers: node:cluster, or a stand-in in a test. A message comes with
 * the means to answer its sender, and the sender itself, which a broadcast may leave out.
 */
export interface Workers {
  onMessage(
    listener: (message: unknown, reply: (message: unknown) => void, sender: unknown) => void,
  ): void;
  /** Sends `message` to every worker but `except`, when given. */
  broadcast(message: unknown, except?: unknown): void;
}

export function clusterWorkers(): Workers {
  return {
    onMessage: (listener) =>
      cluster.on('message', (worker, message) =>
        listener(
          message,
          (answer) => {
            if (worker.isConnected()) worker.send(answer as Serializable);
          },
          worker,
        ),
      ),
    broadcast: (message, except) => {
      for (const worker of Object.values(cluster.workers ?? {}))
        if (worker !== except && worker?.isConnected()) worker.send(message as Serializable);
    },
  };
}

export type HostedStores = Readonly<Record<wire.StoreName, object>>;

/**
 * `announced`: the stores whose every `set` is told to all workers, so that a worker asks for an
 * entry only once it knows the primary holds one (machine-cache.ts); asking for each key that no
 * worker ever stored would cost every response-cache miss, and every record a cold page fetches,
 * a round trip.
 */
export function hostStores(
  stores: HostedStores,
  workers: Workers = clusterWorkers(),
  announced: ReadonlySet<wire.StoreName> = new Set(),
): void {
  const invoke = ({ store, method, args }: wire.Invocation, sender: unknown): unknown => {
    const target = stores[store] as Record<string, unknown> | undefined;
    const fn = target?.[method];
    if (typeof fn !== 'function') throw new Error(`no store method ${store}.${method}`);
    const result = fn.apply(target, args);
    // The worker that stored the entry knows it holds it (machine-cache.ts): the others are told.
    if (method === 'set' && announced.has(store) && typeof args[0] === 'string')
      workers.broadcast(
        { type: wire.HELD, store, key: args[0] } satisfies wire.HeldMessage,
        sender,
      );
    return result;
  };
  workers.onMessage((message, reply, sender) => {
    if (wire.isMessage<wire.Invocations>(message, wire.INVOCATIONS)) {
      const answer = gatheredReplies(reply);
      // Each invoked at once and in order, not in a later turn: a worker's notes and calls reach
      // the stores in the order it made them.
      for (const invocation of message.invocations) {
        let result: unknown;
        try {
          result = invoke(invocation, sender);
        } catch (error) {
          result = Promise.reject(error);
        }
        if (!('id' in invocation)) {
          // A note is best effort, as the store's own method says: nobody waits to hear it failed.
          Promise.resolve(result).catch(() => undefined);
          continue;
        }
        const { id } = invocation;
        Promise.resolve(result).then(
          (value) => answer({ id, value }),
          (error: unknown) => answer({ id, error: wire.sentError(error) }),
        );
      }
    } else if (wire.isMessage<wire.LiveMessage>(message, wire.LIVE)) {
      workers.broadcast(message);
    }
  });
}

/** Replies to one worker, gathered until this turn's promise jobs have run, then sent as one. */
function gatheredReplies(reply: (message: unknown) => void): (answer: wire.Reply) => void {
  let gathering: wire.Reply[] | undefined;
  return (answer) => {
    if (gathering === undefined) {
      const replies: wire.Reply[] = [];
      gathering = replies;
      process.nextTick(() => {
        gathering = undefined;
        reply({ type: wire.REPLIES, replies } satisfies wire.Replies);
      });
    }
    gathering.push(answer);
  };
}
