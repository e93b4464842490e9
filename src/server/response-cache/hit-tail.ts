/**
 * What a response-cache hit writes beside its stored bytes: the body's tail (`extensions.cost`
 * and `extensions.freshness`) and the request log line's operation fields. They depend only on
 * the stored answer, the key, and figures a hit already reads through memos of a second (the
 * key's budget, the freshness report), so they are made once per stored answer, key and change
 * of those figures, and every hit in between reuses them: serializing them per hit cost more
 * than writing the answer.
 */
import type { BudgetUsage } from '../../economy/ledger.js';
import { costExtension } from '../answer-parts/cost-extension.js';
import type { HitLine } from '../answer-parts/hit-summaries.js';
import type { LoggedOperation } from '../answer-parts/request-log.js';
import type { StoredResponse } from './stored-response.js';

export interface HitTail {
  /** `,"extensions":{…}}`: what follows the stored data in the body. */
  readonly tail: Buffer;
  /** Logs the hit (its own line, or its count in a summary). */
  readonly log: HitLine;
}

interface Made extends HitTail {
  readonly budget: BudgetUsage;
  readonly freshness: string;
}

/** Keys whose tails one stored answer keeps at once; more (pass-through clients) start again. */
const KEYS_PER_ANSWER = 64;

/** `lineFor`: the log line of one stored answer's hits for one key. */
export function hitTails(lineFor: (operation: LoggedOperation) => HitLine) {
  const made = new WeakMap<StoredResponse, Map<string, Made>>();
  /**
   * The tail and log line of a hit of `stored` for `keyId`; `budget` and `freshness` (its JSON,
   * or '' for none) are compared by identity: the same memo's values reuse what was made.
   */
  return (
    stored: StoredResponse,
    keyId: string,
    budget: BudgetUsage,
    freshness: string,
  ): HitTail => {
    let ofKeys = made.get(stored);
    if (ofKeys === undefined) {
      ofKeys = new Map();
      made.set(stored, ofKeys);
    }
    const found = ofKeys.get(keyId);
    if (found !== undefined && found.budget === budget && found.freshness === freshness)
      return found;
    const cost = costExtension(
      {
        estimated: stored.estimated,
        upstreamCalls: 0,
        cacheHits: 0,
        deduplicated: 0,
        responseCache: 'hit',
      },
      budget,
    );
    const fresh = freshness === '' ? '' : `,"freshness":${freshness}`;
    const tail = Buffer.from(`,"extensions":{"cost":${JSON.stringify(cost)}${fresh}}}`);
    const log = found?.log ?? lineFor(hitOperation(stored.operationName, keyId));
    if (found === undefined && ofKeys.size >= KEYS_PER_ANSWER) ofKeys.clear();
    const next: Made = { tail, log, budget, freshness };
    ofKeys.set(keyId, next);
    return next;
  };
}

/** What a hit of operation `name` for key `keyId` says of itself in the log: no call, no read. */
export function hitOperation(name: string | null, keyId: string): LoggedOperation {
  return {
    name,
    keyId,
    upstreamCalls: 0,
    cacheHits: 0,
    deduplicated: 0,
    stale: 0,
    responseCache: 'hit',
  };
}
