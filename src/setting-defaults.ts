/**
 * What some settings are when their variable is unset: those whose own modules load Yoga, the
 * stores or the HTTP edge. Kept in a leaf, so that reading the configuration loads none of that:
 * a cluster's primary reads it, serves nothing, and starts (and stays) without that code.
 */

/** CLIENT_BUDGET_SHARE: the largest part of a key's day one client may spend in server-key mode. */
export const DEFAULT_CLIENT_BUDGET_SHARE = 0.5;

/** SHUTDOWN_TIMEOUT_MS: what in-flight requests get once a stop begins. */
export const DEFAULT_GRACE_MS = 10_000;

/** PASS_THROUGH_NEW_KEYS_PER_MINUTE: keys never seen before that one client may have checked upstream. */
export const DEFAULT_UNKNOWN_KEYS_PER_MINUTE = 10;

/** RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW_SECONDS, per client. */
export const DEFAULT_RATE_LIMIT_REQUESTS = 120;
export const DEFAULT_RATE_LIMIT_WINDOW_SECONDS = 60;

/** HTTP_CACHE_MAX_AGE_SECONDS: how long a client may keep a GET's answer. */
export const DEFAULT_HTTP_CACHE_MAX_AGE_SECONDS = 60 * 60;

/** PERSISTED_OPERATIONS and PERSISTED_OPERATIONS_MANIFEST. */
export const DEFAULT_PERSISTED_OPERATIONS_MODE = 'apq' as const;
export const DEFAULT_MANIFEST_PATH = 'examples/generated/persisted-documents.json';

/** GRAPHQL_MAX_REQUEST_BYTES: a request body's size; 413 above it. */
export const DEFAULT_MAX_REQUEST_BYTES = 64 * 1024;

/** GRAPHQL_MAX_DEPTH, _ALIASES, _DIRECTIVES and _TOKENS: an operation's shape. */
export const DEFAULT_MAX_DEPTH = 10;
export const DEFAULT_MAX_ALIASES = 15;
export const DEFAULT_MAX_DIRECTIVES = 10;
export const DEFAULT_MAX_TOKENS = 2_000;

/** GRAPHQL_INTROSPECTION: on by default, since GraphiQL and codegen need it. */
export const DEFAULT_INTROSPECTION = true;

/** SUBSCRIPTIONS_PER_CLIENT: subscriptions one client may hold open at once. */
export const DEFAULT_SUBSCRIPTIONS_PER_CLIENT = 10;

/** MAX_UPSTREAM_COST: the worst-case upstream calls one operation may make. */
export const DEFAULT_MAX_UPSTREAM_COST = 100;
