/**
 * A result as a client may see it: the gateway's errors carry their HTTP
 * status in `extensions.http` for Yoga to set on the response; like Yoga's
 * own result processors, the ones written here leave it out of the body.
 */
import type { ExecutionResult, GraphQLError, GraphQLFormattedError } from 'graphql';

export function publicResult(result: ExecutionResult): Record<string, unknown> {
  const { errors, ...rest } = result;
  // `rest` is already a copy of its own.
  if (errors === undefined || errors.length === 0) return rest;
  return Object.assign(rest, { errors: errors.map(publicError) });
}

function publicError(error: GraphQLError): GraphQLFormattedError {
  const formatted = error.toJSON();
  if (formatted.extensions === undefined || !('http' in formatted.extensions)) return formatted;
  const { http: _internal, ...extensions } = formatted.extensions;
  return Object.keys(extensions).length > 0
    ? Object.assign({}, formatted, { extensions })
    : withoutExtensions(formatted);
}

function withoutExtensions({
  extensions: _none,
  ...formatted
}: GraphQLFormattedError): GraphQLFormattedError {
  return formatted;
}
