/**
 * Pass-through mode: who may ask at all.
 *
 * - A key the upstream rejected, while the gateway remembers it, gets HTTP
 *   401 on every request, `apiUsage`, `__typename` and introspection
 *   included: before anything runs, without an upstream call.
 * - A key the gateway does not know (never seen, or its acceptance lapsed)
 *   costs one upstream call to prove, however many reads the request makes
 *   (key-proofs.ts); each client may bring only `unknownKeysPerMinute` keys
 *   never accepted in the last day, so a flood of made-up keys costs the upstream (and the key
 *   registry) a bounded number of 401s, not one each. Past it, that client
 *   gets RATE_LIMITED (429). One key is one new key however many requests
 *   carry it at once (a page's first burst): they share its one count, and
 *   their reads wait for its one proof.
 * - A key rejected during the request gets no data at all, not even the
 *   parts that came from cache or from other fields: the whole response
 *   becomes a single UNAUTHENTICATED error with HTTP 401.
 */
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { KeyRegistry, KeyStatus } from '../../coordination/key-registry.js';
import { clientRateLimited, unauthenticated } from '../../http-errors.js';
import { clientOf } from '../client-identity.js';
import type { RequestContext } from '../server-context.js';
import type { ClientRateLimiter } from './use-client-rate-limit.js';

export interface ClientKeyCheckOptions {
  readonly keys: KeyRegistry;
  /** Counts, per client, the keys never seen before; absent: no bound (server-key mode has no client keys). */
  readonly unknownKeys?: ClientRateLimiter;
}

export function useClientKeyCheck({
  keys,
  unknownKeys,
}: ClientKeyCheckOptions): Plugin<RequestContext> {
  const counted = unknownKeys === undefined ? undefined : countedOnce(unknownKeys);
  return {
    // A subscription's events make no upstream call of their own: a key the upstream rejected
    // is refused here, or it would go on receiving them.
    async onSubscribe({ args, setResultAndStopExecution }) {
      const { caller } = args.contextValue;
      if (caller.mode === 'client' && (await keys.status(caller.keyId)) === 'rejected')
        setResultAndStopExecution({ errors: [unauthenticated('Invalid or revoked API key')] });
    },
    async onExecute({ args, setResultAndStopExecution }) {
      const { caller, request } = args.contextValue;
      if (caller.mode === 'client') {
        const { status, acceptedBefore } = await statusOf(
          keys,
          caller.keyId,
          counted !== undefined,
        );
        if (status === 'rejected') {
          setResultAndStopExecution({ errors: [unauthenticated('Invalid or revoked API key')] });
          return;
        }
        // The request's reads take this verdict rather than each asking the registry again.
        if (status === 'accepted') args.contextValue.report.keyAccepted = true;
        if (status === 'unknown') args.contextValue.report.keyUnknown = true;
        // A key whose acceptance merely lapsed is proven again, but it is no new key.
        if (
          status === 'unknown' &&
          unknownKeys !== undefined &&
          counted !== undefined &&
          !acceptedBefore
        ) {
          const client = clientOf(request, args.contextValue, unknownKeys.trustProxy);
          const retryAfterSeconds = await counted(client, caller.keyId);
          if (retryAfterSeconds !== null) {
            setResultAndStopExecution({
              errors: [
                clientRateLimited(
                  retryAfterSeconds,
                  unknownKeys.requests,
                  unknownKeys.windowSeconds,
                  'new API keys',
                ),
              ],
            });
            return;
          }
        }
      }
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          const checked = withKeyVerdict(result, args.contextValue);
          if (checked !== result) setResult(checked);
        },
      };
    },
  };
}

/**
 * The key's status and, for a key not known as accepted or rejected, whether it was accepted
 * before (when `countsNewKeys`): asked together, so that a key this process has not seen lately
 * costs one round trip to a shared registry before its first call, not two.
 */
async function statusOf(
  keys: KeyRegistry,
  keyId: string,
  countsNewKeys: boolean,
): Promise<{ status: KeyStatus; acceptedBefore: boolean }> {
  const known = keys.statusNow?.(keyId);
  if (known === 'accepted' || known === 'rejected')
    return { status: known, acceptedBefore: known === 'accepted' };
  if (!countsNewKeys) return { status: await keys.status(keyId), acceptedBefore: false };
  const [status, acceptedBefore] = await Promise.all([keys.status(keyId), keys.wasAccepted(keyId)]);
  return { status, acceptedBefore };
}

/** The whole answer replaced by UNAUTHENTICATED when the key was rejected while it ran (the miss lane's answers too). */
export function withKeyVerdict(
  result: ExecutionResult,
  context: Pick<RequestContext, 'report'>,
): ExecutionResult {
  return context.report.unauthenticated
    ? { errors: [unauthenticated('Invalid or revoked API key')] }
    : result;
}

/**
 * `limiter.consume(client)` once per client and key within the limiter's window: the requests
 * that bring a key while its count is under way, or after it was let through, share that
 * count's answer. A refused key is counted again at its next request (it may fit by then).
 */
function countedOnce(limiter: ClientRateLimiter) {
  const answers = new LRUCache<string, Promise<number | null>>({
    max: 10_000,
    ttl: limiter.windowSeconds * 1000,
  });
  return (client: string, keyId: string): Promise<number | null> => {
    const id = `${client} ${keyId}`;
    let answer = answers.get(id);
    if (answer === undefined) {
      answer = limiter.consume(client);
      answers.set(id, answer);
      void answer.then(
        (retryAfterSeconds) => {
          if (retryAfterSeconds !== null) answers.delete(id);
        },
        () => answers.delete(id),
      );
    }
    return answer;
  };
}
