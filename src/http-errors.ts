/**
 * The errors a request is refused with, each with a stable `extensions.code`
 * (error-codes.ts) and, where the whole request fails, its HTTP status in
 * `extensions.http`: made by the listener, the plugins and the response
 * cache's fast path, and `coded` for the schema's field errors. A leaf, so
 * that the server's refusals need nothing of the schema.
 */
import { GraphQLError } from 'graphql';
import type { ErrorCode } from './error-codes.js';

/** A GraphQL error with one of the gateway's codes (error-codes.ts). */
export function coded(
  message: string,
  code: ErrorCode,
  extensions: Record<string, unknown> = {},
): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extensions } });
}

/**
 * An argument refused before execution starts (nothing runs): HTTP 400 under
 * `application/graphql-response+json`, as for variables that cannot be coerced.
 */
export function badUserInputBeforeExecution(message: string, argumentName: string): GraphQLError {
  return coded(message, 'BAD_USER_INPUT', { argumentName, http: { spec: true, status: 400 } });
}

/** The whole request fails with HTTP 401: no data is served to an unknown key. */
export function unauthenticated(message: string): GraphQLError {
  return coded(message, 'UNAUTHENTICATED', {
    http: { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } },
  });
}

/**
 * The operation's worst-case upstream calls exceed the configured maximum; nothing was executed.
 * HTTP 400 under `application/graphql-response+json`; 200 under `application/json`, as the
 * GraphQL-over-HTTP spec asks for a request that is refused before execution.
 */
export function queryTooCostly(estimated: number, maximum: number): GraphQLError {
  return coded(
    `This operation could cost up to ${estimated} upstream calls; the maximum is ${maximum}. ` +
      'Ask for fewer items (first/limit) or fewer nested fields, or split the operation.',
    'QUERY_TOO_COSTLY',
    { estimated, maximum, http: { spec: true, status: 400 } },
  );
}

/** A shape limit (depth, aliases, directives, tokens) refused the document; reported as a validation error. */
export function queryTooComplex(message: string): GraphQLError {
  return coded(message.replace(/^Syntax Error: /, ''), 'QUERY_TOO_COMPLEX', {
    http: { spec: true, status: 400 },
  });
}

/** The gateway's error shape, for answers written before Yoga sees the request. */
export function errorBody(message: string, code: ErrorCode): string {
  return JSON.stringify({ errors: [{ message, extensions: { code } }] });
}

/** This client sent too many requests in the current window (server-key mode); other clients are unaffected. */
export function clientRateLimited(
  retryAfterSeconds: number,
  limit: number,
  windowSeconds: number,
  what = 'requests',
): GraphQLError {
  return coded(
    `Too many ${what}: at most ${limit} per ${windowSeconds} s per client. Retry in ${retryAfterSeconds} s.`,
    'RATE_LIMITED',
    {
      retryAfterSeconds,
      http: { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) } },
    },
  );
}

/** Past the per-client bound of open subscriptions (use-subscription-limit.ts). */
export function tooManySubscriptions(perClient: number): GraphQLError {
  return coded(
    `Too many open subscriptions: at most ${perClient} at once per client. Close one to open another.`,
    'TOO_MANY_SUBSCRIPTIONS',
    { maximum: perClient, http: { status: 429 } },
  );
}

/** Automatic Persisted Queries: the client must send the query with its hash once (Apollo's wording, which its links match). */
export function persistedQueryNotFound(): GraphQLError {
  return coded('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND', {
    http: { spec: true, status: 400 },
  });
}

/** Allow-list mode: only operations of the trusted-documents manifest run. */
export function persistedQueryOnly(): GraphQLError {
  return coded(
    'Only persisted operations are allowed: send a `documentId` from the manifest.',
    'PERSISTED_QUERY_ONLY',
    { http: { spec: true, status: 400 } },
  );
}

/** Neither a query nor a persisted operation id: Yoga's own wording and status for a missing query. */
export function missingQuery(): GraphQLError {
  return coded('Must provide query string.', 'BAD_REQUEST', { http: { status: 400 } });
}

export function persistedQueryHashMismatch(): GraphQLError {
  return coded('provided sha does not match query', 'PERSISTED_QUERY_HASH_MISMATCH', {
    http: { spec: true, status: 400 },
  });
}

/** An HTTP request the gateway cannot read as a GraphQL request (malformed parameters, unsupported media type). */
export function badRequest(message: string, status = 400): GraphQLError {
  return coded(message, 'BAD_REQUEST', { http: { status } });
}

/** The schema is read-only: mutations and subscriptions are refused at validation. */
export function operationNotSupported(operation: string): GraphQLError {
  return coded(readOnly(operation), 'OPERATION_NOT_SUPPORTED', {
    http: { spec: true, status: 400 },
  });
}

/**
 * The same refusal for a mutation sent by GET: GraphQL over HTTP answers it 405, and HTTP asks
 * a 405 to name the methods allowed (mutations are POST's, though this API has none).
 */
export function mutationViaGet(): GraphQLError {
  return coded(readOnly('Mutation'), 'OPERATION_NOT_SUPPORTED', {
    http: { status: 405, headers: { Allow: 'POST' } },
  });
}

function readOnly(operation: string): string {
  return `${operation} operations are not supported: this API is read-only and only answers queries and subscriptions`;
}

/** JSON decoding would turn the bad bytes into U+FFFD, and a slug made of them would cost a call. */
export function bodyNotUtf8(): GraphQLError {
  return badRequest('The request body is not valid UTF-8');
}

/** A path the gateway does not serve. */
export function pathNotFound(endpoint: string, otherPaths: readonly string[]): GraphQLError {
  return coded(
    `Not found: the GraphQL endpoint is ${endpoint}; the other paths are ${otherPaths.join(', ')}`,
    'NOT_FOUND',
    { http: { status: 404 } },
  );
}

/** The request body is larger than the gateway accepts. */
export function payloadTooLarge(maxBytes: number): GraphQLError {
  return coded(`The request body must be at most ${maxBytes} bytes`, 'PAYLOAD_TOO_LARGE', {
    http: { status: 413 },
  });
}

/**
 * The process holds all the request bodies its memory budget allows (REQUEST_BODIES_TOTAL_BYTES):
 * this one is not read. Its connection is closed; the client may try again in a moment.
 */
export function overloaded(retryAfterSeconds: number): GraphQLError {
  return coded(`The gateway is busy: try again in ${retryAfterSeconds} s`, 'OVERLOADED', {
    retryAfterSeconds,
    http: {
      status: 503,
      headers: { 'Retry-After': String(retryAfterSeconds), Connection: 'close' },
    },
  });
}
