/**
 * Each operation's estimate of its upstream calls in the worst case
 * (upstream-cost.ts), kept by its text: a request's context is given its
 * estimate when it is made (request-spending.ts), and the cost limit, the
 * cost report and the request's hold all read that one figure.
 *
 * Estimates are kept per document by the values of the variables the
 * estimate read, not all of them: an artist page asked for another artist
 * reads no variable that can change its estimate (list sizes do, a slug
 * does not), so its first estimate serves every artist. The estimate is a
 * function of what it reads, so a request whose variables agree on those
 * names gets the same figure; the names read can differ with their values
 * (a connection's window), hence a few sets of names per document.
 */
import { type DocumentNode, type GraphQLSchema, parse } from 'graphql';
import { LRUCache } from 'lru-cache';
import { estimateUpstreamCost } from './upstream-cost.js';

/** Operation texts whose documents are kept, and estimates kept per set of variables read. */
const DOCUMENTS_KEPT = 1_000;
const ESTIMATES_PER_READ_SET = 64;
/** Sets of variables read kept per document and operation name: past this, estimates are not kept. */
const READ_SETS_PER_OPERATION = 8;

/**
 * Variables written out longer than this are estimated afresh each time instead of kept: any
 * client may send megabytes of them, and kept, they would be memory the client chooses, up to
 * DOCUMENTS_KEPT × READ_SETS_PER_OPERATION × ESTIMATES_PER_READ_SET times over.
 */
const MAX_KEPT_VARIABLES_CHARS = 512;

/** What an operation is asked as: its text (validated before any context is made), name and variables. */
export interface OperationParams {
  readonly query?: string | null;
  readonly operationName?: string | null;
  readonly variables?: unknown;
}

/** The estimates of one operation of a document whose estimate read these variables. */
interface ReadSet {
  readonly names: readonly string[];
  readonly estimates: LRUCache<string, number>;
}

interface Parsed {
  readonly document: DocumentNode;
  /** By operation name, then by the names of the variables read (joined). */
  readonly operations: Map<string, Map<string, ReadSet>>;
}

export class OperationEstimates {
  readonly #byText = new LRUCache<string, Parsed>({ max: DOCUMENTS_KEPT });

  constructor(private readonly schema: GraphQLSchema) {}

  /** The operation's worst-case upstream calls; 0 for an operation with no text (nothing to run). */
  of({ query, operationName, variables }: OperationParams): number {
    if (typeof query !== 'string') return 0;
    let parsed = this.#byText.get(query);
    if (parsed === undefined) {
      parsed = { document: parse(query), operations: new Map() };
      this.#byText.set(query, parsed);
    }
    let readSets = parsed.operations.get(operationName ?? '');
    if (readSets === undefined) {
      readSets = new Map();
      parsed.operations.set(operationName ?? '', readSets);
    }
    for (const { names, estimates } of readSets.values()) {
      const key = valuesKey(names, variables);
      const kept = key === undefined ? undefined : estimates.get(key);
      if (kept !== undefined) return kept;
    }
    const { upstreamCalls, variablesRead } = estimateUpstreamCost(
      this.schema,
      parsed.document,
      operationName,
      variables,
    );
    const key = valuesKey(variablesRead, variables);
    const joined = variablesRead.join('\n');
    let readSet = readSets.get(joined);
    if (readSet === undefined && readSets.size < READ_SETS_PER_OPERATION) {
      readSet = { names: variablesRead, estimates: new LRUCache({ max: ESTIMATES_PER_READ_SET }) };
      readSets.set(joined, readSet);
    }
    if (key !== undefined) readSet?.estimates.set(key, upstreamCalls);
    return upstreamCalls;
  }
}

/**
 * What the client sent for `names`: each value, or that it sent none (the operation's default
 * then applies, the same for every request). Undefined when not worth keeping.
 */
function valuesKey(names: readonly string[], variables: unknown): string | undefined {
  const given =
    typeof variables === 'object' && variables !== null
      ? (variables as Record<string, unknown>)
      : {};
  let written: string;
  try {
    written = JSON.stringify(names.map((name) => (name in given ? [given[name]] : 0)));
  } catch {
    // Nested past the stack (a 9 KB body can be): graphql-js refuses such a value on its own.
    return undefined;
  }
  return written.length > MAX_KEPT_VARIABLES_CHARS ? undefined : written;
}
