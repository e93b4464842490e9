/**
 * Turns at building answers. Every GraphQL request Yoga answers holds, while
 * it is parsed, executed and written, the records it read, its result and
 * the answer's bytes. Requests that arrive together all progress together
 * (each awaits its reads, the others run meanwhile), so all of them would
 * hold all of that at once. With turns, at most `max` are worked on at once; the others
 * wait, in order of arrival, holding only their connection and body.
 *
 * A turn begins when the request is handed to Yoga and ends when its answer
 * has been handed to node:http whole or its stream has begun
 * (compressed-responses.ts), or when the client goes away: a client slow to
 * read never holds one. A response-cache hit takes no turn (it is written
 * from stored bytes), nor do the health, readiness and metrics paths.
 *
 * An operation relayed from a WebSocket takes a turn the same way, until its
 * first result (or refusal) has been read back (websocket/relayed-operation.ts).
 *
 * Warm answers are work for the one event loop, so a few turns at once lose
 * nothing; cold ones wait for the upstream, where UPSTREAM_MAX_CONCURRENCY
 * connections bound them anyway.
 */
import type { ServerResponse } from 'node:http';
import { answerHandedOver } from '../http/compressed-responses.js';

export const DEFAULT_CONCURRENT_ANSWERS = 16;

interface Waiter {
  state: 'waiting' | 'given' | 'left';
  readonly start: () => void;
}

export class RequestTurns {
  #active = 0;
  /** Requests waiting, first come first served; a waiter that left is skipped. */
  readonly #waiting: Waiter[] = [];
  #head = 0;

  constructor(readonly max = DEFAULT_CONCURRENT_ANSWERS) {
    if (!Number.isSafeInteger(max) || max < 1)
      throw new Error(`max must be a positive integer: ${max}`);
  }

  /** Requests waiting and still there. */
  #waitingCount = 0;

  /** Requests being worked on, and waiting. */
  get counts(): { active: number; waiting: number } {
    return { active: this.#active, waiting: this.#waitingCount };
  }

  /**
   * Resolves once it is the turn of the request answered on `res` (its turn ends with its
   * answer): `now`, or `waited` when others went first; `left` when the client left while it
   * waited (nothing is to be done for it).
   */
  async take(res: ServerResponse): Promise<'now' | 'waited' | 'left'> {
    return this.#take(
      (leave) => {
        res.once('close', leave);
        return () => res.off('close', leave);
      },
      () => answerHandedOver(res),
    );
  }

  /**
   * A turn for an answer that is no HTTP response (an operation relayed from a WebSocket): it
   * ends when `handedOver` settles; `left` when `gone` aborts while it waits.
   */
  takeFor(gone: AbortSignal, handedOver: Promise<unknown>): Promise<'now' | 'waited' | 'left'> {
    return this.#take(
      (leave) => {
        gone.addEventListener('abort', leave, { once: true });
        return () => gone.removeEventListener('abort', leave);
      },
      () =>
        handedOver.then(
          () => undefined,
          () => undefined,
        ),
    );
  }

  async #take(
    onLeave: (leave: () => void) => () => void,
    ended: () => Promise<void>,
  ): Promise<'now' | 'waited' | 'left'> {
    if (this.#active >= this.max) {
      let start: () => void = () => undefined;
      const started = new Promise<void>((resolve) => {
        start = resolve;
      });
      const waiter: Waiter = { state: 'waiting', start };
      const stopWatching = onLeave(() => {
        if (waiter.state !== 'waiting') return;
        waiter.state = 'left';
        this.#waitingCount -= 1;
        start();
      });
      this.#waiting.push(waiter);
      this.#waitingCount += 1;
      await started;
      stopWatching();
      if (waiter.state === 'left') return 'left';
      this.#endWith(ended);
      return 'waited';
    }
    this.#active += 1;
    this.#endWith(ended);
    return 'now';
  }

  /** Runs `answer` in the request's turn; not at all when its client left while it waited. */
  async inTurn(res: ServerResponse, answer: () => unknown): Promise<void> {
    if ((await this.take(res)) !== 'left') await answer();
  }

  #endWith(ended: () => Promise<void>): void {
    void ended().then(() => this.#next());
  }

  /** A turn ended: the next waiter still there takes it. */
  #next(): void {
    while (this.#head < this.#waiting.length) {
      const waiter = this.#waiting[this.#head]!;
      this.#head += 1;
      if (this.#head > 1024 && this.#head * 2 > this.#waiting.length) {
        this.#waiting.splice(0, this.#head);
        this.#head = 0;
      }
      if (waiter.state === 'left') continue;
      // The turn passes on: the count of active requests stays.
      waiter.state = 'given';
      this.#waitingCount -= 1;
      waiter.start();
      return;
    }
    this.#active -= 1;
  }
}
