/**
 * A bound on what one subscriber may have waiting in this process. Yoga's SSE
 * stream asks for the next event only once the socket has taken the last
 * one, so for a client that stops reading (and stays connected) every later
 * event waits here: without a bound, memory grows with each event for as long
 * as the connection lasts, and the pub/sub queue behind it throws at 1,024
 * waiting events, inside the loop that hands each event to every subscriber.
 *
 * Events are taken from the feed at once and counted here (as their JSON
 * size), with the bytes still queued on the subscriber's socket. Past
 * `maxBytes`, the subscription ends: its stream completes (which frees its
 * SUBSCRIPTIONS_PER_CLIENT slot) and its connection is closed. A reader that
 * keeps up holds one event at most, however many are published.
 *
 * All subscribers of the process together may hold at most
 * SUBSCRIBER_BACKLOG_TOTAL_BYTES (furthest-behind-first.ts): ten subscriptions for each
 * of a thousand clients could otherwise hold ten thousand times `maxBytes`.
 * Past it, the subscriber furthest behind is ended first, as if it had
 * passed its own bound (counted alike, gateway_subscriptions_dropped_total).
 */
import type { ServerResponse } from 'node:http';
import type { BehindMember, FurthestBehindFirst } from './furthest-behind-first.js';

export const DEFAULT_SUBSCRIBER_BACKLOG_BYTES = 1024 * 1024;
export const DEFAULT_SUBSCRIBER_BACKLOG_TOTAL_BYTES = 16 * 1024 * 1024;

/** Where a subscriber's events go, as far as the bound is concerned. */
export interface SubscriberOutlet {
  /** Bytes written for this subscriber that its socket has not sent yet. */
  queuedBytes(): number;
  /** The subscriber fell `bytes` behind, past the bound: its subscription has ended. */
  overflowed(bytes: number): void;
}

/** The outlet of a subscription answered on `res` (absent for in-process `yoga.fetch` calls). */
export function responseOutlet(
  res: ServerResponse | undefined,
  onOverflow: (bytes: number) => void,
): SubscriberOutlet {
  return {
    queuedBytes: () => res?.writableLength ?? 0,
    overflowed(bytes) {
      onOverflow(bytes);
      // Its socket buffers go with it; Yoga learns of the end from the completed stream.
      res?.destroy();
    },
  };
}

const sizes = new WeakMap<object, number>();

/** An event's JSON size, computed once however many subscribers hold it. */
function sizeOf(event: unknown): number {
  if (typeof event !== 'object' || event === null) return JSON.stringify(event)?.length ?? 0;
  let size = sizes.get(event);
  if (size === undefined) {
    size = JSON.stringify(event).length;
    sizes.set(event, size);
  }
  return size;
}

/**
 * `events` as one subscriber takes them, ended once it falls more than `maxBytes` behind, or
 * when all subscribers of `total` hold too much and it is the furthest behind.
 */
export function boundedBacklog<T>(
  events: AsyncIterableIterator<T>,
  maxBytes: number,
  outlet: SubscriberOutlet,
  total?: FurthestBehindFirst,
): AsyncIterableIterator<T> {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
    throw new Error(`maxBytes must be a positive integer: ${maxBytes}`);
  const waiting: { event: T; bytes: number }[] = [];
  let waitingBytes = 0;
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;

  const stop = () => {
    total?.leave(member);
    if (ended) return;
    ended = true;
    wake?.();
    void events.return?.();
  };
  /** Ended for being `bytes` behind: what waits for it goes, and so does its connection. */
  const overflow = (bytes: number) => {
    waiting.length = 0;
    waitingBytes = 0;
    stop();
    outlet.overflowed(bytes);
  };
  const member: BehindMember = {
    behind: () => waitingBytes + outlet.queuedBytes(),
    drop: overflow,
  };

  void (async () => {
    try {
      for await (const event of events) {
        if (ended) return;
        const bytes = sizeOf(event);
        waiting.push({ event, bytes });
        waitingBytes += bytes;
        const behind = member.behind();
        if (behind > maxBytes) {
          overflow(behind);
          return;
        }
        total?.holds(member, behind);
        wake?.();
      }
    } catch (error) {
      failure = { error };
    }
    // The feed ended: what is waiting is still delivered.
    ended = true;
    wake?.();
  })();

  const iterator: AsyncIterableIterator<T> = {
    async next() {
      for (;;) {
        const first = waiting.shift();
        if (first !== undefined) {
          waitingBytes -= first.bytes;
          return { value: first.event, done: false };
        }
        if (failure !== undefined) throw failure.error;
        if (ended) {
          total?.leave(member);
          return { value: undefined, done: true };
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    },
    async return() {
      waiting.length = 0;
      waitingBytes = 0;
      stop();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
