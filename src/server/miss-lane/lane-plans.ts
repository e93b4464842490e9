/**
 * What the miss lane knows, learned from Yoga's own answers, never guessed:
 *
 * - the operations it may run: each one Yoga ran compiled for a lane-shaped
 *   body of the same text and operation name, so every check that depends
 *   on the document alone (nesting, shape, persisted-operations mode, query
 *   only, no incremental delivery) has passed for that text;
 * - the media type Yoga answers a regular result in, per `Accept` header as
 *   sent: Yoga's negotiation depends on that header alone for such a result.
 *
 * Both are bounded: the least recently used leave first, and a document that
 * leaves is Yoga's again until it has been run compiled once more.
 */
import { LRUCache } from 'lru-cache';
import type { CompiledOperation } from '../plugins/use-compiled-execution.js';
import type { LaneParams } from './lane-params.js';

/** As many as the compiled executor keeps plans for: the lane holds nothing that one does not. */
const OPERATIONS_KEPT = 1_000;

/** More than the `Accept` headers a gateway's clients send. */
const ACCEPT_HEADERS_KEPT = 64;

export class LanePlans {
  readonly #operations = new LRUCache<string, CompiledOperation>({ max: OPERATIONS_KEPT });
  readonly #mediaTypes = new LRUCache<string, string>({ max: ACCEPT_HEADERS_KEPT });

  operationFor(params: LaneParams): CompiledOperation | undefined {
    return this.#operations.get(operationKey(params));
  }

  /** The media type of a regular answer for this `Accept` header, once Yoga has sent one. */
  mediaTypeFor(accept: string | undefined): string | undefined {
    return this.#mediaTypes.get(accept ?? '');
  }

  /** What Yoga's answer to a lane-shaped request teaches: its operation, its media type. */
  learn(
    params: LaneParams,
    compiled: CompiledOperation,
    accept: string | undefined,
    mediaType: string,
  ): void {
    this.#operations.set(operationKey(params), compiled);
    this.#mediaTypes.set(accept ?? '', mediaType);
  }
}

const operationKey = ({ query, operationName }: LaneParams) => `${operationName ?? ''}\n${query}`;
