/**
 * The budget ledger of a worker of one machine without Redis: the primary
 * keeps the one memory ledger (written through to the budget file) and
 * every worker reserves from it, so the machine spends the key's day once.
 * A 429 this worker hears stops its own next call at once (LocalStops),
 * before the primary has been told, as the Redis ledger does.
 */
import { RemoteError } from '../machine/messages.js';
import type { PrimaryLink } from '../machine/primary-link.js';
import { utcDay } from '../time.js';
import { UpstreamError } from '../upstream/errors.js';
import { callNotRecorded, rateLimitKindOf } from '../upstream/rate-limits.js';
import {
  type BudgetLedger,
  type BudgetUsage,
  LocalStops,
  PlanRefusal,
  type Returned,
  resetsAtOf,
  type Spender,
} from './ledger.js';
import type { DaySpending } from './spending-plan.js';

export class MachineBudgetLedger implements BudgetLedger {
  readonly #stops: LocalStops;

  constructor(
    private readonly primary: PrimaryLink,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.#stops = new LocalStops(now);
  }

  async reserve(spender: Spender): Promise<string> {
    const resetsAt = this.resetsAt();
    this.#stops.check(spender.keyId, resetsAt);
    let day: string;
    try {
      day = await this.primary.call<string>('budget', 'reserve', spender);
    } catch (error) {
      throw refusalOf(error) ?? callNotRecorded('unreachable', resetsAt, error);
    }
    // A 429 may have come back to this worker while the primary counted: the call must not leave then.
    this.#stops.check(spender.keyId, resetsAt);
    return day;
  }

  async release(returned: Returned): Promise<void> {
    this.primary.note('budget', 'release', returned);
  }

  async dayTurned(keyId: string, countedOn: string): Promise<string> {
    // The primary reads the same clock: on the same day it would answer `countedOn` unchanged.
    if (utcDay(this.now()) === countedOn) return countedOn;
    return this.primary.call<string>('budget', 'dayTurned', keyId, countedOn);
  }

  rateLimited(keyId: string, error: UpstreamError): void {
    this.#stops.record(keyId, rateLimitKindOf(error));
    const heard: HeardRateLimit = {
      message: error.message,
      ...(error.retryAfterSeconds === undefined
        ? {}
        : { retryAfterSeconds: error.retryAfterSeconds }),
    };
    this.primary.note('budget', 'rateLimitedAs', keyId, heard);
  }

  usage(keyId: string): Promise<BudgetUsage> {
    return this.primary.call<BudgetUsage>('budget', 'usage', keyId);
  }

  async forget(keyId: string): Promise<void> {
    this.primary.note('budget', 'forget', keyId);
  }

  spending(keyId: string): Promise<DaySpending> {
    return this.primary.call<DaySpending>('budget', 'spending', keyId);
  }

  resetsAt(): string {
    return resetsAtOf(this.now());
  }
}

/** What the primary needs of a 429 a worker heard: whether it ends the day, or how long it pauses. */
export interface HeardRateLimit {
  readonly message: string;
  readonly retryAfterSeconds?: number;
}

/** The ledger's refusal as its caller tells it apart: RATE_LIMITED, or the plan's. */
function refusalOf(error: unknown): Error | undefined {
  if (!(error instanceof RemoteError)) return undefined;
  const { name, message, fields } = error.sent;
  if (name === 'UpstreamError')
    return new UpstreamError(fields.code as UpstreamError['code'], message, fields);
  if (name === 'PlanRefusal') return new PlanRefusal(fields.clientPaced as number | undefined);
  return undefined;
}
