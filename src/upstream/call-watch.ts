/**
 * What the calls that left say of the upstream right now: whether the last
 * one to come back failed, and how long the oldest call still out has gone
 * unanswered while nothing else came back. The read policy turns this into
 * the upstream's condition (reads/upstream-condition.ts). Durations come
 * from `performance.now()`, never from the wall clock.
 */

export interface UpstreamHealth {
  /** The last call to come back failed: no answer, or a 5xx. */
  readonly lastFailed: boolean;
  /** How long the oldest call still out has waited with no call answered since it left (ms); 0 when none waits so. */
  readonly unansweredMs: number;
}

export class CallWatch {
  readonly #out = new Map<number, number>();
  #nextId = 0;
  #lastAnsweredAt = Number.NEGATIVE_INFINITY;
  #lastFailed = false;

  /** A call leaves now; the returned function is called once, when it comes back. */
  sent(): (failed: boolean) => void {
    const id = this.#nextId++;
    this.#out.set(id, performance.now());
    return (failed) => {
      this.#out.delete(id);
      this.#lastFailed = failed;
      if (!failed) this.#lastAnsweredAt = performance.now();
    };
  }

  health(): UpstreamHealth {
    const now = performance.now();
    // Calls leave in order, so the map's first entry is the oldest still out.
    const oldest = this.#out.values().next();
    const unansweredMs =
      oldest.done === true || oldest.value < this.#lastAnsweredAt ? 0 : now - oldest.value;
    return { lastFailed: this.#lastFailed, unansweredMs };
  }
}
