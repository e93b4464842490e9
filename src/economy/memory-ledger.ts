/**
 * The budget ledger of a gateway without Redis: counts in memory, written
 * through to `file` (when given) before each call leaves, so that a restart
 * remembers the day; calls reserved together wait for one write. A crash
 * leaves either the old or the new count on disk, never half of one
 * (budget-file.ts).
 */
import { utcDay } from '../time.js';
import type { UpstreamError } from '../upstream/errors.js';
import { budgetSpent, clientShareSpent, rateLimitKindOf } from '../upstream/rate-limits.js';
import { BudgetFile, NotABudgetFile } from './budget-file.js';
import {
  type BudgetLedger,
  type BudgetOptions,
  type BudgetUsage,
  clientCap,
  LocalStops,
  PlanRefusal,
  type Returned,
  resetsAtOf,
  type Spender,
  withinCeiling,
} from './ledger.js';
import type { DaySpending } from './spending-plan.js';

interface DayCount {
  used: number;
  /** Set once the upstream said its daily-limit 429 for this key today. */
  exhausted: boolean;
  /** Of `used`: first touches, paced over the day (spending-plan.ts). */
  paced: number;
  /** Of `used`: refreshes of the most popular records. */
  refreshed: number;
  /** Of `used`: refresh polls. */
  polled: number;
}

interface DayState {
  readonly day: string;
  readonly keys: Record<string, DayCount>;
  readonly clients: Record<string, number>;
  /** Of each client's calls: its first touches (spending-plan.ts, the client's share of the pacing). */
  readonly clientsPaced: Record<string, number>;
}

/**
 * Keys and clients seen in one day are bounded: a flood of made-up keys cannot grow the ledger without end.
 * A key the upstream rejects leaves it (`forget`), so made-up keys hold a slot only while their one call is out.
 */
const MAX_TRACKED = 10_000;

export class MemoryBudgetLedger implements BudgetLedger {
  #state: DayState;
  readonly #now: () => Date;
  readonly #stops: LocalStops;
  #pendingWrite: Promise<void> | undefined;
  readonly #file: BudgetFile | undefined;

  constructor(
    private readonly options: BudgetOptions,
    file?: string,
  ) {
    this.#now = options.now ?? (() => new Date());
    this.#stops = new LocalStops(this.#now);
    this.#file = file === undefined ? undefined : new BudgetFile(file);
    this.#state = this.#load() ?? emptyDay(utcDay(this.#now()));
  }

  #today(): DayState {
    const day = utcDay(this.#now());
    if (this.#state.day !== day) this.#state = emptyDay(day);
    return this.#state;
  }

  async reserve({ keyId, clientId, ceiling, calls = 1 }: Spender): Promise<string> {
    const resetsAt = this.resetsAt();
    this.#stops.check(keyId, resetsAt);
    const state = this.#today();
    const count = state.keys[keyId] ?? emptyCount();
    if (count.exhausted || count.used >= this.options.dailyLimit) throw budgetSpent(resetsAt);
    // Several calls at once that do not fit are refused by the plan: fewer might.
    if (count.used + calls > this.options.dailyLimit || !withinCeiling(ceiling, count, calls))
      throw new PlanRefusal();
    const clientPaced = clientId === undefined ? 0 : (state.clientsPaced[clientId] ?? 0);
    if (
      clientId !== undefined &&
      ceiling?.clientLimit !== undefined &&
      clientPaced + calls > ceiling.clientLimit
    )
      throw new PlanRefusal(clientPaced);
    const cap = clientCap(this.options);
    const clientUsed = clientId === undefined ? 0 : (state.clients[clientId] ?? 0);
    if (clientId !== undefined && clientUsed >= cap) throw clientShareSpent(cap, resetsAt);
    if (clientId !== undefined && clientUsed + calls > cap) throw new PlanRefusal();
    if (!tracks(state.keys, keyId)) throw budgetSpent(resetsAt);
    count.used += calls;
    if (ceiling !== undefined) count[ceiling.counter] += calls;
    state.keys[keyId] = count;
    if (clientId !== undefined && tracks(state.clients, clientId)) {
      state.clients[clientId] = clientUsed + calls;
      if (ceiling?.clientLimit !== undefined) state.clientsPaced[clientId] = clientPaced + calls;
    }
    await this.#written();
    return state.day;
  }

  async release({ keyId, clientId, ceiling, calls, day }: Returned): Promise<void> {
    const state = this.#today();
    const count = state.keys[keyId];
    if (count === undefined || calls <= 0 || day !== state.day) return;
    count.used = Math.max(0, count.used - calls);
    if (ceiling !== undefined) count[ceiling.counter] = Math.max(0, count[ceiling.counter] - calls);
    if (clientId !== undefined && clientId in state.clients) {
      state.clients[clientId] = Math.max(0, (state.clients[clientId] ?? 0) - calls);
      if (ceiling?.clientLimit !== undefined && clientId in state.clientsPaced)
        state.clientsPaced[clientId] = Math.max(0, (state.clientsPaced[clientId] ?? 0) - calls);
    }
    await this.#written();
  }

  async dayTurned(keyId: string, countedOn: string): Promise<string> {
    const state = this.#today();
    if (state.day === countedOn) return countedOn;
    const count = state.keys[keyId] ?? emptyCount();
    count.used += 1;
    // A key past the bound of the day's keys is not tracked: it could not reserve today either.
    if (tracks(state.keys, keyId)) state.keys[keyId] = count;
    await this.#written();
    return state.day;
  }

  rateLimited(keyId: string, error: UpstreamError): void {
    const kind = rateLimitKindOf(error);
    this.#stops.record(keyId, kind);
    if (kind.kind !== 'daily') return;
    const state = this.#today();
    state.keys[keyId] = Object.assign({}, state.keys[keyId] ?? emptyCount(), { exhausted: true });
    this.#save();
  }

  async forget(keyId: string): Promise<void> {
    const state = this.#today();
    if (!(keyId in state.keys)) return;
    delete state.keys[keyId];
    await this.#written();
  }

  async usage(keyId: string): Promise<BudgetUsage> {
    const count = this.#today().keys[keyId] ?? emptyCount();
    const dailyLimit = this.options.dailyLimit;
    const exhausted = count.exhausted || this.#stops.isStoppedToday(keyId);
    return {
      dailyLimit,
      used: count.used,
      remaining: exhausted ? 0 : Math.max(0, dailyLimit - count.used),
      resetsAt: this.resetsAt(),
    };
  }

  async spending(keyId: string): Promise<DaySpending> {
    const { used, paced, refreshed, polled } = this.#today().keys[keyId] ?? emptyCount();
    return { used, paced, refreshed, polled };
  }

  resetsAt(): string {
    return resetsAtOf(this.#now());
  }

  #load(): DayState | undefined {
    if (this.#file === undefined) return undefined;
    const text = this.#file.read();
    if (text === undefined) return undefined;
    const state = parseState(text);
    if (state === undefined) throw new NotABudgetFile(this.#file.path);
    return state.day === utcDay(this.#now()) ? state : undefined;
  }

  /**
   * Resolves once the counts as they are now are on disk. The reservations of one turn of the
   * event loop (twenty history reads of one page, say) share one write, since each write is of
   * the whole file, every client's count in it, synchronously, before the calls can leave.
   */
  #written(): Promise<void> {
    if (this.#file === undefined) return Promise.resolve();
    this.#pendingWrite ??= new Promise((resolve, reject) => {
      setImmediate(() => {
        this.#pendingWrite = undefined;
        try {
          this.#save();
          resolve();
        } catch (error) {
          reject(error);
        }
      });
    });
    return this.#pendingWrite;
  }

  #save(): void {
    // Synchronous on purpose (and quick: budget-file.ts): the count is on disk before the call it allows leaves.
    this.#file?.write(JSON.stringify(this.#state));
  }
}

/** Whether the day counts `key`: it does already, or there is room for one more under MAX_TRACKED. */
function tracks(counted: Record<string, unknown>, key: string): boolean {
  return key in counted || Object.keys(counted).length < MAX_TRACKED;
}

function emptyCount(): DayCount {
  return { used: 0, exhausted: false, paced: 0, refreshed: 0, polled: 0 };
}

function emptyDay(day: string): DayState {
  return { day, keys: {}, clients: {}, clientsPaced: {} };
}

/** A counter of an older file (or a hand-edited one) that is not a count reads as none. */
function countOf(value: unknown): number {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : 0;
}

/** Per-client counts of a file; absent (an older file) reads as none. */
function countsOf(value: Record<string, number> | undefined): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [clientId, used] of Object.entries(value ?? {})) {
    if (Number.isSafeInteger(used)) counts[clientId] = used;
  }
  return counts;
}

function parseState(text: string): DayState | undefined {
  try {
    const value = JSON.parse(text) as Partial<DayState>;
    if (typeof value.day !== 'string' || typeof value.keys !== 'object' || value.keys === null)
      return undefined;
    const keys: Record<string, DayCount> = {};
    for (const [keyId, count] of Object.entries(value.keys)) {
      if (!Number.isSafeInteger(count?.used) || count.used < 0) return undefined;
      keys[keyId] = {
        used: count.used,
        exhausted: count.exhausted === true,
        paced: countOf(count.paced),
        refreshed: countOf(count.refreshed),
        polled: countOf(count.polled),
      };
    }
    return {
      day: value.day,
      keys,
      clients: countsOf(value.clients),
      clientsPaced: countsOf(value.clientsPaced),
    };
  } catch {
    return undefined;
  }
}
