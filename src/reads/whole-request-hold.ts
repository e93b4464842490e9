/**
 * A request's first touches, taken from the day's plan together: when the
 * allowance cannot cover every request, it is spent on requests answered
 * whole, and the rest are refused before any of their reads leave: taken
 * one by one, concurrent cold pages would share the allowance between them
 * and few or none would come back whole (docs/decisions/whole-requests.md).
 *
 * The request's first new record takes a hold of every call the request may
 * still need (its estimate, less what it has already read or been answered),
 * all or none, before the read joins the upstream client's queue; its later
 * new records take from the hold. Should the hold run out (the estimate was
 * low), another is taken the same way. What the request held and did not
 * need goes back to the day once its reads have settled.
 *
 * A hold the plan refuses while other requests of this process hold calls
 * waits for one of them to settle and tries again: the estimate is an upper
 * bound (a page of 7 calls may hold 14), and what those requests give back
 * may be enough. Refused with nothing left to wait for, the request is
 * refused whole: every later new record of it at once.
 *
 * A request that may need more than the plan's burst takes its calls one by
 * one, as every read did before: the pacing line keeps at most the burst
 * ahead of the day's count, so a larger hold could only be granted to a day
 * that is not paced at all, and such a request would wait for ever.
 *
 * A held call is counted on the UTC day of its hold, which may be over when
 * it leaves: each call taken names that day, so that the gate counts it on
 * the new day too (send-gate.ts), and what goes back goes to that day.
 */
export interface HoldTerms {
  /** Calls the request may still need, at least 1. */
  need(): number;
  /** The largest hold the plan can grant while it is paced (its burst). */
  readonly largest: number;
  /** Takes `calls` from the plan, all or none, and resolves with the day they count on; throws its refusal. */
  reserve(calls: number): Promise<string>;
  /** Gives back `calls` taken on `day` and not needed. */
  release(calls: number, day: string): Promise<void>;
  /** The holds of this process's requests: where a refused hold waits for others to settle. */
  readonly holds: OpenHolds;
  /** Whether a refusal may pass once other holds are given back (the plan's, not a day spent or a count not recorded). */
  deferred(error: unknown): boolean;
}

export class WholeRequestHold {
  /** Calls taken from the hold so far. */
  taken = 0;
  #held = 0;
  /** The UTC day the held calls are counted on. */
  #heldOn = '';
  /** Holds this request opened (each is closed when it settles). */
  #opened = 0;
  /** The request may need more than the largest hold: its calls are taken one by one. */
  #oneByOne = false;
  #refusal: { readonly error: unknown } | undefined;
  #taking: Promise<void> | undefined;
  #terms: HoldTerms | undefined;

  /**
   * One call of the request's: from its hold, or from a new hold of what it may still need.
   * Resolves with the UTC day it is counted on.
   */
  async take(terms: HoldTerms): Promise<string> {
    for (;;) {
      if (this.#refusal !== undefined) throw this.#refusal.error;
      if (this.#held > 0) {
        this.#held -= 1;
        this.taken += 1;
        return this.#heldOn;
      }
      if (this.#oneByOne) {
        const day = await terms.reserve(1);
        this.taken += 1;
        return day;
      }
      this.#taking ??= this.#hold(terms).finally(() => {
        this.#taking = undefined;
      });
      await this.#taking.catch(() => undefined);
    }
  }

  /** A call taken (counted on `day`) that did not leave after all (the circuit, the request's cap). */
  giveBack(day: string): void {
    // Held calls of two days (the call given back was on its way at midnight) are all taken as the
    // older day's: used, they are counted again on the new day; given back, they are dropped.
    if (this.#held === 0 || day < this.#heldOn) this.#heldOn = day;
    this.#held += 1;
    this.taken -= 1;
  }

  /** Gives back what the request held and did not use; its reads have settled. */
  settle(): Promise<void> | undefined {
    const unused = this.#held;
    this.#held = 0;
    const terms = this.#terms;
    if (terms === undefined) return;
    // Nothing to give back (the usual case): the holds close at once, without a promise.
    if (unused > 0) return terms.release(unused, this.#heldOn).then(() => this.#close(terms));
    this.#close(terms);
    return undefined;
  }

  #close(terms: HoldTerms): void {
    for (; this.#opened > 0; this.#opened -= 1) terms.holds.closed();
  }

  async #hold(terms: HoldTerms): Promise<void> {
    const calls = Math.max(1, Math.floor(terms.need()));
    if (calls > terms.largest) {
      this.#oneByOne = true;
      return;
    }
    for (;;) {
      try {
        this.#heldOn = await terms.reserve(calls);
        break;
      } catch (error) {
        if (terms.deferred(error) && (await terms.holds.someSettled())) continue;
        this.#refusal = { error };
        throw error;
      }
    }
    this.#terms = terms;
    this.#opened += 1;
    terms.holds.opened();
    this.#held += calls;
  }
}

/** The holds of one process's requests: a refused hold waits for one of them to settle. */
export class OpenHolds {
  #open = 0;
  #waiting: (() => void)[] = [];

  opened(): void {
    this.#open += 1;
  }

  closed(): void {
    this.#open = Math.max(0, this.#open - 1);
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }

  /** Resolves true once some hold open now has settled; false at once when none is open. */
  someSettled(): Promise<boolean> {
    if (this.#open === 0) return Promise.resolve(false);
    return new Promise((resolve) => this.#waiting.push(() => resolve(true)));
  }
}
