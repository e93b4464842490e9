/**
 * A worker's line to the primary that keeps the machine's stores. A call
 * waits for its reply; notes (a counted view, a returned lease) go without
 * one, gathered until the event loop turns, so that a busy worker sends one
 * message for many; a call first sends the notes made before it, so the
 * primary sees everything in the order the worker did it.
 */
import {
  CALL,
  type Call,
  HELD,
  type HeldMessage,
  type Invocation,
  isMessage,
  LIVE,
  type LiveMessage,
  NOTES,
  type Notes,
  REPLY,
  RemoteError,
  type Reply,
  type StoreName,
} from './messages.js';

/** How a worker reaches its primary: node:cluster's channel, or a stand-in in a test. */
export interface Channel {
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
}

export function processChannel(): Channel {
  return {
    send: (message) => {
      // A worker whose primary is gone exits (cluster.ts); until then its calls stay unanswered.
      if (process.connected) process.send?.(message);
    },
    onMessage: (listener) => process.on('message', listener),
  };
}

export class PrimaryLink {
  readonly #pending = new Map<
    number,
    { resolve(value: unknown): void; reject(error: Error): void }
  >();
  readonly #liveListeners = new Set<(topic: string, data: unknown) => void>();
  readonly #heldListeners = new Set<(store: StoreName, key: string) => void>();
  #notes: Invocation[] = [];
  #nextId = 0;

  constructor(private readonly channel: Channel = processChannel()) {
    channel.onMessage((message) => {
      if (isMessage<Reply>(message, REPLY)) this.#settle(message);
      else if (isMessage<LiveMessage>(message, LIVE))
        for (const listener of this.#liveListeners) listener(message.topic, message.data);
      else if (isMessage<HeldMessage>(message, HELD))
        for (const listener of this.#heldListeners) listener(message.store, message.key);
    });
  }

  /** `store.method(...args)` in the primary, its answer or its refusal. */
  call<T>(store: StoreName, method: string, ...args: unknown[]): Promise<T> {
    this.#sendNotes();
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.channel.send({ type: CALL, id, store, method, args } satisfies Call);
    });
  }

  /** `store.method(...args)` in the primary, nobody waiting for it. */
  note(store: StoreName, method: string, ...args: unknown[]): void {
    if (this.#notes.length === 0) setImmediate(() => this.#sendNotes());
    this.#notes.push({ store, method, args });
  }

  /** Announces `data` on `topic` to every worker of the machine, this one included. */
  publish(topic: string, data: unknown): void {
    this.#sendNotes();
    this.channel.send({ type: LIVE, topic, data } satisfies LiveMessage);
  }

  onPublished(listener: (topic: string, data: unknown) => void): void {
    this.#liveListeners.add(listener);
  }

  /** Told of every entry the primary stores in an announced store (store-host.ts). */
  onHeld(listener: (store: StoreName, key: string) => void): void {
    this.#heldListeners.add(listener);
  }

  #sendNotes(): void {
    if (this.#notes.length === 0) return;
    const notes = this.#notes;
    this.#notes = [];
    this.channel.send({ type: NOTES, notes } satisfies Notes);
  }

  #settle(reply: Reply): void {
    const waiting = this.#pending.get(reply.id);
    if (waiting === undefined) return;
    this.#pending.delete(reply.id);
    if (reply.error === undefined) waiting.resolve(reply.value);
    else waiting.reject(new RemoteError(reply.error));
  }
}
