/**
 * A primary and one worker joined inside one process, as node:cluster joins
 * them: each message serialized as JSON, delivered in order, a turn later.
 * The machine's warm-up (gateway/machine-warm-up.ts) runs a throwaway set of
 * stores through it, so that the primary's side of the stores and the
 * worker's line to it run as they do across processes.
 */
import type { Channel } from './primary-link.js';
import type { Workers } from './store-host.js';

type PrimaryListener = (
  message: unknown,
  reply: (message: unknown) => void,
  sender: unknown,
) => void;

export interface Loopback {
  /** The primary's side: what hostStores listens on. */
  readonly workers: Workers;
  /** The worker's side: what a PrimaryLink sends on. */
  readonly channel: Channel;
}

/** The one worker's identity, as the primary's listeners are told of a sender. */
const WORKER = 'loopback worker';

export function loopback(): Loopback {
  const toPrimary: PrimaryListener[] = [];
  const toWorker: ((message: unknown) => void)[] = [];
  const deliver = (message: unknown, to: (copy: unknown) => void): void => {
    const copy = JSON.parse(JSON.stringify(message)) as unknown;
    setImmediate(() => to(copy));
  };
  const reply = (message: unknown): void =>
    deliver(message, (copy) => {
      for (const listener of toWorker) listener(copy);
    });
  return {
    workers: {
      onMessage: (listener) => toPrimary.push(listener),
      broadcast: (message, except) => {
        if (except !== WORKER) reply(message);
      },
    },
    channel: {
      send: (message) =>
        deliver(message, (copy) => {
          for (const listener of toPrimary) listener(copy, reply, WORKER);
        }),
      onMessage: (listener) => toWorker.push(listener),
    },
  };
}
