/**
 * The budget figures an answer reports (`extensions.cost.budget`), for
 * response-cache hits and Yoga's answers alike. With Redis, reading the
 * ledger is a round trip; an answer that made no call and met no error
 * reports figures a second old at most (the other replicas' spending since
 * included), and one that made calls or was refused reads them now, so that
 * a client sees its own spending and the reason it was refused.
 */
import type { BudgetLedger, BudgetUsage } from '../../economy/ledger.js';
import type { MaybePromise } from '../../schema/maybe-promise.js';

/** How old the figures of an answer that spent nothing may be. */
const KEPT_MS = 1_000;
/** Keys whose figures are kept at once; past it, all are read again. */
const KEYS_KEPT = 1_000;

export class ReportedBudget {
  readonly #kept = new Map<string, { readonly usage: BudgetUsage; readonly until: number }>();

  constructor(private readonly ledger: Pick<BudgetLedger, 'usage'>) {}

  /** Figures at most a second old: without a promise when this process read them that recently. */
  recent(keyId: string): MaybePromise<BudgetUsage> {
    const kept = this.#kept.get(keyId);
    if (kept !== undefined && kept.until > performance.now()) return kept.usage;
    return this.now(keyId);
  }

  /** Figures read from the ledger now, kept for the answers that follow. */
  async now(keyId: string): Promise<BudgetUsage> {
    const usage = await this.ledger.usage(keyId);
    if (this.#kept.size >= KEYS_KEPT) this.#kept.clear();
    this.#kept.set(keyId, { usage, until: performance.now() + KEPT_MS });
    return usage;
  }
}
