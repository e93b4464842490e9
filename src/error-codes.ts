/**
 * Every `extensions.code` the gateway sends, in one list: its own refusals
 * (http-errors.ts, schema/errors.ts), the failures of upstream reads (UpstreamError), the
 * refusals of requests Node's HTTP parser cannot read (unparsed-requests.ts),
 * and the three codes Yoga itself sets (parse, validation, operation
 * resolution). docs/errors.md says when each is sent, with its HTTP status;
 * test/error-codes.spec.ts holds that table and this list to each other.
 *
 * A leaf: every layer that sends a code imports it from here.
 */
export const ERROR_CODES = [
  'NOT_FOUND',
  'BAD_USER_INPUT',
  'QUERY_TOO_COSTLY',
  'QUERY_TOO_COMPLEX',
  'OPERATION_NOT_SUPPORTED',
  'BAD_REQUEST',
  // Set by Yoga, not by the gateway's code: listed because clients receive them.
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_HASH_MISMATCH',
  'PERSISTED_QUERY_ONLY',
  'PAYLOAD_TOO_LARGE',
  'REQUEST_HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'RATE_LIMITED',
  'TOO_MANY_SUBSCRIPTIONS',
  'OVERLOADED',
  'UPSTREAM_ERROR',
  'UPSTREAM_INVALID_RESPONSE',
  'UNAUTHENTICATED',
  'INTERNAL_SERVER_ERROR',
] as const;

/** A code clients may see in `extensions.code` (and in `extensions.warnings[].code`). */
export type ErrorCode = (typeof ERROR_CODES)[number];
