/**
 * The schema's field errors and Yoga's error mask. Upstream failures travel
 * as UpstreamError from the loaders and are translated once, in `maskError`,
 * where anything that is not an expected failure is masked as
 * INTERNAL_SERVER_ERROR. The refusals of whole requests are made in
 * http-errors.ts, with the same `coded` shape.
 */
import { PothosValidationError } from '@pothos/core';
import { GraphQLError } from 'graphql';
import type { ErrorCode } from '../error-codes.js';
import { coded } from '../http-errors.js';
import { CallCapReached } from '../reads/request-spending.js';
import { UpstreamError } from '../upstream/errors.js';

/** An error's extensions as the gateway writes them: its code first, then what goes with it. */
type CodedExtensions = { readonly code: ErrorCode } & Record<string, unknown>;

/** An argument the gateway refuses before any upstream call. */
export function badUserInput(message: string, argumentName?: string): GraphQLError {
  return coded(message, 'BAD_USER_INPUT', argumentName ? { argumentName } : {});
}

function extensionsFor(error: UpstreamError): CodedExtensions {
  return {
    code: error.code,
    ...(error.status !== undefined ? { upstreamStatus: error.status } : {}),
    ...(error.resetsAt !== undefined ? { resetsAt: error.resetsAt } : {}),
  };
}

/** The same error at the same place in the response, with a message and extensions clients may see. */
function relocated(
  at: GraphQLError | undefined,
  message: string,
  extensions: CodedExtensions,
): GraphQLError {
  return new GraphQLError(message, {
    nodes: at?.nodes,
    source: at?.source,
    positions: at?.positions,
    path: at?.path,
    extensions,
  });
}

/** Yoga's error mask: expected failures keep their message and code, the rest say nothing. */
export function maskError(error: unknown, message: string, isDev = false): Error {
  const graphQLError = error instanceof GraphQLError ? error : undefined;
  const original = graphQLError?.originalError ?? error;

  if (original instanceof UpstreamError)
    return relocated(graphQLError, original.message, extensionsFor(original));
  // The run-time cost bound: this field's read would have gone past the request's cap; what was read stays.
  if (original instanceof CallCapReached) {
    return relocated(
      graphQLError,
      `${original.message}; this field was not read. Ask for fewer items (first/limit) or fewer nested fields.`,
      { code: 'QUERY_TOO_COSTLY', maximum: original.maximum },
    );
  }
  // Pothos refuses malformed global ids: the client's mistake.
  if (original instanceof PothosValidationError) {
    return relocated(graphQLError, original.message, { code: 'BAD_USER_INPUT' });
  }
  // Errors the gateway made on purpose (validation, bad input) already carry their code.
  if (
    graphQLError !== undefined &&
    (graphQLError.originalError == null || graphQLError.originalError instanceof GraphQLError)
  ) {
    return graphQLError;
  }
  const shown = isDev && original instanceof Error ? original.message : message;
  return relocated(graphQLError, shown, { code: 'INTERNAL_SERVER_ERROR' });
}
