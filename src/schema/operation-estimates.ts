/**
 * Each operation's estimate of its upstream calls in the worst case
 * (upstream-cost.ts), kept by its text: a request's context is given its
 * estimate when it is made (request-spending.ts), and the cost limit, the
 * cost report and the request's hold all read that one figure. List sizes
 * come from variables, hence a second key per document.
 */
import { type DocumentNode, type GraphQLSchema, parse } from 'graphql';
import { LRUCache } from 'lru-cache';
import { estimateUpstreamCost } from './upstream-cost.js';

/** Operation texts whose documents are kept, and estimates kept per document (one per operation name and variables). */
const DOCUMENTS_KEPT = 1_000;
const ESTIMATES_PER_DOCUMENT = 64;

/**
 * Variables written out longer than this are estimated afresh each time instead of kept: any
 * client may send megabytes of them (undeclared ones included), and kept, they would be memory
 * the client chooses, up to DOCUMENTS_KEPT × ESTIMATES_PER_DOCUMENT times over.
 */
const MAX_KEPT_VARIABLES_CHARS = 512;

/** What an operation is asked as: its text (validated before any context is made), name and variables. */
export interface OperationParams {
  readonly query?: string | null;
  readonly operationName?: string | null;
  readonly variables?: unknown;
}

interface Parsed {
  readonly document: DocumentNode;
  readonly estimates: LRUCache<string, number>;
}

export class OperationEstimates {
  readonly #byText = new LRUCache<string, Parsed>({ max: DOCUMENTS_KEPT });

  constructor(private readonly schema: GraphQLSchema) {}

  /** The operation's worst-case upstream calls; 0 for an operation with no text (nothing to run). */
  of({ query, operationName, variables }: OperationParams): number {
    if (typeof query !== 'string') return 0;
    let parsed = this.#byText.get(query);
    if (parsed === undefined) {
      parsed = { document: parse(query), estimates: new LRUCache({ max: ESTIMATES_PER_DOCUMENT }) };
      this.#byText.set(query, parsed);
    }
    const key = estimateKey(operationName, variables);
    const kept = key === undefined ? undefined : parsed.estimates.get(key);
    if (kept !== undefined) return kept;
    const { upstreamCalls } = estimateUpstreamCost(
      this.schema,
      parsed.document,
      operationName,
      variables,
    );
    if (key !== undefined) parsed.estimates.set(key, upstreamCalls);
    return upstreamCalls;
  }
}

/** The estimate's key among a document's, or undefined when it is not worth keeping. */
function estimateKey(
  operationName: string | null | undefined,
  variables: unknown,
): string | undefined {
  let written: string;
  try {
    written = JSON.stringify(variables ?? null);
  } catch {
    // Nested past the stack (a 9 KB body can be): graphql-js refuses such a value on its own.
    return undefined;
  }
  return written.length > MAX_KEPT_VARIABLES_CHARS
    ? undefined
    : `${operationName ?? ''}\n${written}`;
}
