/**
 * The upstream client's queue, in two lanes. A call somebody waits for (a
 * reader's, the refresh poll's) leaves before any background call (the sweep
 * at a new generation, a refresh behind an answer), and background calls may
 * never take the last connections: at a new generation every replica sweeps
 * hundreds of records, and a reader's refresh queued behind them would
 * outlast the grace it may wait. A background call a reader comes to wait for
 * is promoted to the reader's lane where it stands.
 *
 * p-limit and p-queue order calls but cannot keep slots from one class of
 * them, hence this small queue of our own.
 */

export type Lane = 'reader' | 'background';

/** Which lane a call queues in; a background call can be promoted while it waits. */
export class CallPriority {
  #lane: Lane;
  #promoted: (() => void) | undefined;

  constructor(lane: Lane) {
    this.#lane = lane;
  }

  get lane(): Lane {
    return this.#lane;
  }

  /** A reader waits for this call now: it goes ahead of the background calls. */
  promote(): void {
    if (this.#lane === 'reader') return;
    this.#lane = 'reader';
    this.#promoted?.();
  }

  /** Told once when the call is promoted (the queue moves it). */
  onPromote(moved: (() => void) | undefined): void {
    this.#promoted = moved;
  }
}

interface Waiting {
  readonly priority: CallPriority;
  readonly start: () => void;
}

export class CallLanes {
  #active = 0;
  #activeBackground = 0;
  readonly #readers: Waiting[] = [];
  readonly #background: Waiting[] = [];

  /**
   * `limit`: calls in flight at once; background calls take at most `limit` less the slots
   * kept for readers (a quarter, at least one, when there is more than one).
   */
  constructor(private readonly limit: number) {}

  get #backgroundLimit(): number {
    if (this.limit <= 1) return this.limit;
    return this.limit - Math.max(1, Math.floor(this.limit / 4));
  }

  /** Calls in flight and waiting together. */
  get size(): number {
    return this.#active + this.#readers.length + this.#background.length;
  }

  run<T>(priority: CallPriority, task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiting: Waiting = {
        priority,
        start: () => {
          const background = priority.lane === 'background';
          this.#active += 1;
          if (background) this.#activeBackground += 1;
          priority.onPromote(undefined);
          task()
            .then(resolve, reject)
            .finally(() => {
              this.#active -= 1;
              if (background) this.#activeBackground -= 1;
              this.#next();
            });
        },
      };
      if (priority.lane === 'reader') this.#readers.push(waiting);
      else {
        this.#background.push(waiting);
        priority.onPromote(() => {
          const at = this.#background.indexOf(waiting);
          if (at < 0) return;
          this.#background.splice(at, 1);
          this.#readers.push(waiting);
          this.#next();
        });
      }
      this.#next();
    });
  }

  #next(): void {
    while (this.#active < this.limit) {
      const reader = this.#readers.shift();
      if (reader !== undefined) {
        reader.start();
        continue;
      }
      if (this.#activeBackground >= this.#backgroundLimit) return;
      const background = this.#background.shift();
      if (background === undefined) return;
      background.start();
    }
  }
}
