/**
 * One upstream call, from the gate to the stored entry: paid for under the
 * caller's policy (from the request's hold, or in its connection slot,
 * send-gate.ts), sent in its lane with retries within the read's deadline,
 * its body read into a record or its failure triaged (failure-triage.ts),
 * and the answer kept in the shared cache with the length of the list it is
 * a page of. What to call and when is the read path's (cached-upstream.ts).
 */
import type { CacheEntry, ResponseCache } from '../cache/cache.js';
import type { CircuitBreaker } from '../coordination/circuit-breaker.js';
import type { KeyRegistry } from '../coordination/key-registry.js';
import type { BudgetLedger } from '../economy/ledger.js';
import type { Popularity } from '../economy/popularity.js';
import type { Purpose } from '../economy/spending-plan.js';
import type { GenerationView } from '../freshness/generation.js';
import { CallPriority } from '../upstream/call-lanes.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { UpstreamRequest } from '../upstream/endpoints.js';
import { type RetryPolicy, withRetries } from '../upstream/retry.js';
import type { UpstreamNotices } from '../upstream/upstream-notices.js';
import type { Caller } from './caller.js';
import { type CachePolicy, entryFor, readBody, recordBytes, stampOf, totalKey } from './entries.js';
import { notFoundOrThrow } from './failure-triage.js';
import type { ReadPolicy } from './read-policy.js';
import type { RequestReads } from './request-spending.js';
import { sendGate, toldToCircuit } from './send-gate.js';
import { OpenHolds } from './whole-request-hold.js';

export interface UpstreamCallsOptions {
  readonly client: UpstreamClient;
  readonly cache: ResponseCache;
  readonly budget: BudgetLedger;
  readonly keys: KeyRegistry;
  readonly circuit: CircuitBreaker;
  readonly cachePolicy: CachePolicy;
  readonly retry: RetryPolicy;
  readonly deadlineMs: number;
  readonly notices: UpstreamNotices;
  readonly generation?: GenerationView;
  readonly popularity?: Popularity;
}

/** One call: what it reads, for whom, under which policy, for what, within what, in which lane. */
export interface Call {
  readonly request: UpstreamRequest<unknown>;
  readonly caller: Caller;
  readonly policy: ReadPolicy;
  readonly reads: RequestReads;
  readonly purpose: Purpose;
  /** The read's deadline; a new one of `deadlineMs` when absent. */
  readonly signal?: AbortSignal | undefined;
  /** A reader's lane when absent. */
  readonly priority?: CallPriority | undefined;
  /** Asked once the call has its connection slot, before anything else; throws to keep it from leaving. */
  readonly claim?: (() => Promise<void>) | undefined;
}

export class UpstreamCalls {
  /** This process's requests holding calls together: a refused hold waits for one to settle. */
  readonly #holds = new OpenHolds();

  constructor(private readonly options: UpstreamCallsOptions) {}

  /** The call, and its answer kept. */
  async fetchAndStore(call: Call): Promise<CacheEntry> {
    const entry = await this.fetch(call);
    await this.store(call.request, entry);
    return entry;
  }

  /** Keeps an answer, and for a page of a list the list's length, read at the same time and as fresh. */
  async store(request: UpstreamRequest<unknown>, entry: CacheEntry): Promise<void> {
    const { cache } = this.options;
    const list = request.list;
    if (entry.outcome === 'not-found') {
      // Not there upstream: whatever views it had were not of a record, and must not make it popular.
      await Promise.all([
        cache.set(request.key, entry),
        this.options.popularity?.forget(request.key),
      ]);
      return;
    }
    if (list === undefined) return cache.set(request.key, entry);
    const total = list.totalOf(entry.value);
    await Promise.all([
      cache.set(request.key, entry),
      cache.set(
        totalKey(list.key),
        Object.assign({}, entry, { value: total, bytes: String(total).length }),
      ),
    ]);
  }

  /** One upstream read (retries included) made into a cache entry: a record, or a not-found answer. */
  async fetch({
    request,
    caller,
    policy,
    reads: { spending },
    purpose,
    signal = AbortSignal.timeout(this.options.deadlineMs),
    priority = new CallPriority('reader'),
    claim,
  }: Call): Promise<CacheEntry> {
    const { client, budget, keys, cachePolicy, retry, deadlineMs, circuit, notices } = this.options;
    // The generation when the read starts: an answer that was on its way while a newer one was seen may predate it.
    const stamp = stampOf(this.options.generation);
    const key = request.key;
    let gate: ReturnType<typeof sendGate> | undefined;
    try {
      const prepaidOn = await policy.prepaid(caller, spending, purpose, key, this.#holds);
      const opened = sendGate({
        circuit,
        budget,
        client,
        policy,
        caller,
        spending,
        purpose,
        key,
        ...(prepaidOn === undefined ? {} : { prepaidOn }),
        ...(claim === undefined ? {} : { claim }),
      });
      gate = opened;
      const attempt = toldToCircuit(circuit, () =>
        client.get(key, caller.apiKey, signal, {
          gate: opened,
          resource: request.resource,
          priority,
        }),
      );
      const response = await withRetries(attempt, retry, performance.now() + deadlineMs, signal);
      if (caller.mode === 'client') await keys.markAccepted(caller.keyId);
      const value = readBody(request, response.body, notices);
      return entryFor('value', value, recordBytes(response.bytes), cachePolicy, stamp);
    } catch (error) {
      const message = await notFoundOrThrow(error, request, caller, this.options);
      return entryFor('not-found', message, message.length, cachePolicy, stamp);
    } finally {
      // Paid from the request's hold but never sent (the circuit, the cap): the hold has it back.
      const unused = gate?.unusedPrepaid();
      if (unused !== undefined) spending.hold?.giveBack(unused);
    }
  }
}
