/**
 * A worker's line to the primary that keeps the machine's stores. A call
 * waits for its reply; notes (a counted view, a returned lease) go without
 * one. Both are gathered and sent in the order they were made: a call once
 * this turn's promise jobs have run, so that the calls a page's reads make
 * together leave together; notes alone at the next turn, so that a busy
 * worker sends one message for many.
 *
 * Each store hears its own calls and notes in the order they were made (the
 * leases, each key's), and notes in the order they were made whatever their
 * stores (a record stored, then its flight's lease returned). A call that
 * nothing waiting to leave is for (nothing for its store; for a lease,
 * nothing for its resource) goes ahead of the notes, in a message of its
 * own: the records a page's reads store are most
 * of what a worker sends, and a call behind them (the key's figures for the
 * answer's cost report, the next wave's leases) waited for the primary to
 * read them all.
 */
import {
  type Call,
  HELD,
  type HeldMessage,
  INVOCATIONS,
  type Invocation,
  type Invocations,
  isMessage,
  LIVE,
  type LiveMessage,
  REPLIES,
  RemoteError,
  type Replies,
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
  /** Calls and notes not sent yet, in the order they were made. */
  #outbox: (Invocation | Call)[] = [];
  /** Whether a call is among them: then they leave before the next turn. */
  #callWaiting = false;
  #nextId = 0;

  constructor(private readonly channel: Channel = processChannel()) {
    channel.onMessage((message) => {
      if (isMessage<Replies>(message, REPLIES))
        for (const reply of message.replies) this.#settle(reply);
      else if (isMessage<LiveMessage>(message, LIVE))
        for (const listener of this.#liveListeners) listener(message.topic, message.data);
      else if (isMessage<HeldMessage>(message, HELD))
        for (const listener of this.#heldListeners) listener(message.store, message.key);
    });
  }

  /** `store.method(...args)` in the primary, its answer or its refusal. */
  call<T>(store: StoreName, method: string, ...args: unknown[]): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#outbox.push({ store, method, args, id } satisfies Call);
      if (this.#callWaiting) return;
      this.#callWaiting = true;
      // A tick queued from a promise job runs once they all have: the calls made with this one go too.
      process.nextTick(this.#send);
    });
  }

  /** `store.method(...args)` in the primary, nobody waiting for it. */
  note(store: StoreName, method: string, ...args: unknown[]): void {
    if (this.#outbox.length === 0) setImmediate(this.#send);
    this.#outbox.push({ store, method, args });
  }

  /** Announces `data` on `topic` to every worker of the machine, this one included. */
  publish(topic: string, data: unknown): void {
    this.#send();
    this.channel.send({ type: LIVE, topic, data } satisfies LiveMessage);
  }

  onPublished(listener: (topic: string, data: unknown) => void): void {
    this.#liveListeners.add(listener);
  }

  /** Told of every entry the primary stores in an announced store (store-host.ts). */
  onHeld(listener: (store: StoreName, key: string) => void): void {
    this.#heldListeners.add(listener);
  }

  readonly #send = (): void => {
    this.#callWaiting = false;
    if (this.#outbox.length === 0) return;
    const { ahead, inOrder } = callsAhead(this.#outbox);
    this.#outbox = [];
    for (const invocations of [ahead, inOrder])
      if (invocations.length > 0)
        this.channel.send({ type: INVOCATIONS, invocations } satisfies Invocations);
  };

  #settle(reply: Reply): void {
    const waiting = this.#pending.get(reply.id);
    if (waiting === undefined) return;
    this.#pending.delete(reply.id);
    if (reply.error === undefined) waiting.resolve(reply.value);
    else waiting.reject(new RemoteError(reply.error));
  }
}

/**
 * Stores whose every call and note is about the one key it names first, and never about another:
 * a lease taken is independent of another resource's lease returned. A page's next wave takes its
 * leases while the last wave's are being returned, behind the records the last wave stored.
 */
const KEYED_STORES: ReadonlySet<StoreName> = new Set(['leases']);

/** What a waiting note holds back: its store's calls, or in a keyed store those of its key. */
const heldBack = (invocation: Invocation) =>
  KEYED_STORES.has(invocation.store)
    ? `${invocation.store} ${String(invocation.args[0])}`
    : invocation.store;

/** The calls that no note waiting to leave holds back, and everything else in its order. */
function callsAhead(outbox: readonly (Invocation | Call)[]) {
  const noted = new Set<string>();
  for (const invocation of outbox) if (!('id' in invocation)) noted.add(heldBack(invocation));
  if (noted.size === 0) return { ahead: outbox, inOrder: [] };
  const ahead: (Invocation | Call)[] = [];
  const inOrder: (Invocation | Call)[] = [];
  for (const invocation of outbox)
    (!('id' in invocation) || noted.has(heldBack(invocation)) ? inOrder : ahead).push(invocation);
  return { ahead, inOrder };
}
