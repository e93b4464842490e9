/**
 * All GraphQL errors the gateway sends are made here, with a stable
 * `extensions.code`. Upstream failures travel as UpstreamError from the
 * loaders and are translated once, in `maskError`, where anything that is
 * not an expected failure is masked as INTERNAL_SERVER_ERROR.
 */
import { GraphQLError } from 'graphql';
import { UpstreamError } from '../upstream/errors.js';

export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'NOT_FOUND'
  | 'UNAUTHENTICATED'
  | 'RATE_LIMITED'
  | 'UPSTREAM_ERROR'
  | 'UPSTREAM_INVALID_RESPONSE'
  | 'INTERNAL_SERVER_ERROR';

/** An argument the gateway refuses before any upstream call. */
export function badUserInput(message: string, argumentName?: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: 'BAD_USER_INPUT', ...(argumentName ? { argumentName } : {}) },
  });
}

/** The whole request fails with HTTP 401: no data is served to an unknown key. */
export function unauthenticated(message: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: 'UNAUTHENTICATED', http: { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } } },
  });
}

function extensionsFor(error: UpstreamError): Record<string, unknown> {
  return {
    code: error.code,
    ...(error.status !== undefined ? { upstreamStatus: error.status } : {}),
    ...(error.resetsAt !== undefined ? { resetsAt: error.resetsAt } : {}),
  };
}

/** Yoga's error mask: expected failures keep their message and code, the rest say nothing. */
export function maskError(error: unknown, message: string, isDev = false): Error {
  const graphQLError = error instanceof GraphQLError ? error : undefined;
  const original = graphQLError?.originalError ?? error;

  if (original instanceof UpstreamError) {
    return new GraphQLError(original.message, {
      nodes: graphQLError?.nodes,
      source: graphQLError?.source,
      positions: graphQLError?.positions,
      path: graphQLError?.path,
      extensions: extensionsFor(original),
    });
  }
  // Errors the gateway made on purpose (validation, bad input) already carry their code.
  if (graphQLError !== undefined && (graphQLError.originalError == null || graphQLError.originalError instanceof GraphQLError)) {
    return graphQLError;
  }
  return new GraphQLError(isDev && original instanceof Error ? original.message : message, {
    nodes: graphQLError?.nodes,
    source: graphQLError?.source,
    positions: graphQLError?.positions,
    path: graphQLError?.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
}
