/**
 * The parameters of a request the miss lane may answer: a POST's JSON body,
 * or a GET's search parameters, with a `query` and at most `variables` and
 * `operationName`, each of the type Yoga accepts. Anything else (persisted
 * operations by `extensions` or `documentId`, a batch, a member or a
 * parameter Yoga refuses or reads otherwise) is Yoga's to read, answer or
 * refuse, so that its errors stay the only ones a malformed request gets.
 */
import type { OperationParams } from '../../schema/operation-estimates.js';

export interface LaneParams extends OperationParams {
  readonly query: string;
  readonly variables: Record<string, unknown>;
  readonly operationName: string | undefined;
}

const MEMBERS = new Set(['query', 'variables', 'operationName']);

export function laneParams(body: Buffer): LaneParams | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isObject(parsed)) return undefined;
  for (const name in parsed) if (!MEMBERS.has(name)) return undefined;
  const { query, variables, operationName } = parsed;
  if (typeof query !== 'string' || query === '') return undefined;
  if (variables != null && !isObject(variables)) return undefined;
  if (operationName != null && (typeof operationName !== 'string' || operationName === ''))
    return undefined;
  return {
    query,
    variables: (variables as Record<string, unknown> | null | undefined) ?? {},
    operationName: (operationName as string | null | undefined) ?? undefined,
  };
}

/** A GET's parameters, from the request's URL (path and search). */
export function laneGetParams(url: string): LaneParams | undefined {
  const search = new URLSearchParams(url.slice(url.indexOf('?') + 1));
  const seen = new Set<string>();
  for (const name of search.keys()) {
    if (!MEMBERS.has(name) || seen.has(name)) return undefined;
    seen.add(name);
  }
  const query = search.get('query');
  const variables = search.get('variables');
  const operationName = search.get('operationName');
  if (query === null || query === '' || operationName === '') return undefined;
  let parsed: unknown = {};
  if (variables !== null) {
    try {
      parsed = JSON.parse(variables);
    } catch {
      return undefined;
    }
    if (!isObject(parsed)) return undefined;
  }
  return {
    query,
    variables: parsed as Record<string, unknown>,
    operationName: operationName ?? undefined,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
